import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { ACCOUNT } from '../testing/fixtures';
import { startMcpHttpServer } from './http-server';

const AGENT_KEY = `svc_test_${'A'.repeat(40)}`;
const PERSONAL_KEY = `svc_test_${'P'.repeat(40)}`;
const UNKNOWN_KEY = `svc_test_${'U'.repeat(40)}`;

/** The payments API's GET /v1/accounts/me, answering by key, counting lookups. */
async function startAccountsApi() {
  const lookups: string[] = [];
  const server: Server = createServer((req, res) => {
    const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    lookups.push(key);
    const type = key === AGENT_KEY ? 'agent' : key === PERSONAL_KEY ? 'personal' : null;
    res.writeHead(type ? 200 : 401, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        type
          ? { ...ACCOUNT, type }
          : { error: { code: 'unauthorized', message: 'Invalid API key', request_id: 'req_1' } },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, lookups, server };
}

describe('cts mcp --http', () => {
  let api: Awaited<ReturnType<typeof startAccountsApi>>;
  let mcp: Server;
  let endpoint: URL;

  beforeEach(async () => {
    api = await startAccountsApi();
    mcp = await startMcpHttpServer({ host: '127.0.0.1', port: 0, apiUrl: api.url });
    endpoint = new URL(`http://127.0.0.1:${(mcp.address() as AddressInfo).port}/mcp`);
  });

  afterEach(async () => {
    mcp.closeAllConnections();
    api.server.closeAllConnections();
    await Promise.all([
      new Promise((resolve) => mcp.close(resolve)),
      new Promise((resolve) => api.server.close(resolve)),
    ]);
  });

  const connect = async (key: string, scheme = 'Bearer') => {
    const client = new Client({ name: 'http-spec', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(endpoint, {
        requestInit: { headers: { Authorization: `${scheme} ${key}` } },
      }),
    );
    return client;
  };

  const initialize = (key: string) =>
    fetch(endpoint, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });

  it('serves an agent key, checking it with the API once for many requests', async () => {
    const client = await connect(AGENT_KEY);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('pay_for_resource');
    await client.close();

    expect(api.lookups.filter((key) => key === AGENT_KEY)).toHaveLength(1);
  });

  it('takes the Bearer scheme in any case, as the API does (RFC 7235: the scheme is case-insensitive)', async () => {
    for (const scheme of ['bearer', 'BEARER']) {
      const client = await connect(AGENT_KEY, scheme);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('pay');
      await client.close();
    }
  });

  it('answers a well-formed key the API refuses with 401, from initialize on', async () => {
    const res = await initialize(UNKNOWN_KEY);

    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await res.json()).toMatchObject({
      error: { message: expect.stringMatching(/API key was refused/) },
    });
    await expect(connect(UNKNOWN_KEY)).rejects.toThrow();
  });

  it('answers the key of an account that is not an agent with 403: it would pay with no spend policy', async () => {
    const res = await initialize(PERSONAL_KEY);

    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { message: expect.stringMatching(/not an agent/) } });
  });
});
