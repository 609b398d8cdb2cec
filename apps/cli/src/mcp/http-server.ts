import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CtsClient } from '@cts/sdk';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { AgentKeyChecks } from './agent-key-check';
import { createAgentMcpServer } from './agent-mcp-server';

export interface McpHttpOptions {
  host: string;
  port: number;
  /** The payments API the tools call. */
  apiUrl: string;
  fetch?: typeof fetch;
}

const AGENT_KEY = /^svc_(?:test|live)_[0-9A-Za-z]{20,100}$/;

/** The agent key of `Authorization: Bearer <key>`; the scheme in any case (RFC 7235 §2.1), as the API reads it. */
function bearerKey(header: string | undefined): string | undefined {
  const [, scheme, key] = /^(\S+) +(\S+) *$/.exec(header ?? '') ?? [];
  return scheme?.toLowerCase() === 'bearer' && key !== undefined && AGENT_KEY.test(key) ? key : undefined;
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

/**
 * Streamable HTTP at `/mcp`, stateless: every request carries `Authorization: Bearer <agent key>` and
 * is served as that agent, so the port holds no spending authority of its own. The key is checked
 * with the API first: refused → 401, not an agent's → 403. Bound to loopback by default, with
 * DNS-rebinding protection there.
 */
export async function startMcpHttpServer(options: McpHttpOptions): Promise<Server> {
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(options.host);
  const server = createServer((req, res) => void handle(req, res));
  const clientFor = (key: string) =>
    new CtsClient({ baseUrl: options.apiUrl, apiKey: key, fetch: options.fetch });
  const keys = new AgentKeyChecks(clientFor);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp') {
      refuse(res, 404, 'Not found: the MCP endpoint is /mcp');
      return;
    }
    const key = bearerKey(req.headers.authorization);
    if (!key) {
      res.setHeader('www-authenticate', 'Bearer');
      refuse(res, 401, "Authorization: Bearer <the agent's API key> is required");
      return;
    }
    const verdict = await keys.check(key);
    if (!verdict.ok) {
      if (verdict.status === 401) {
        res.setHeader('www-authenticate', 'Bearer error="invalid_token"');
      }
      refuse(res, verdict.status, verdict.message);
      return;
    }
    const { port } = server.address() as AddressInfo;
    const mcp = createAgentMcpServer(clientFor(key));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      ...(loopback
        ? {
            enableDnsRebindingProtection: true,
            allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`],
          }
        : {}),
    });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    try {
      await mcp.connect(transport);
      await transport.handleRequest(req, res);
    } catch {
      if (!res.headersSent) {
        refuse(res, 500, 'The MCP request could not be handled');
      }
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  return server;
}
