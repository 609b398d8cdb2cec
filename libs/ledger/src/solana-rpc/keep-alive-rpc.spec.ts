import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, isSolanaError } from '@solana/kit';
import { createKeepAliveLedgerRpc } from './keep-alive-rpc';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

// u64 values beyond 2^53 must come back exact, as kit's own transport parses them.
const HEIGHT = '12345678901234567';

describe('keep-alive ledger RPC transport', () => {
  let server: Server;
  let url: string;
  let connections: number;
  let handle: Handler;

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => handle(request, response, Buffer.concat(chunks).toString()));
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    connections = 0;
    handle = answerBlockHeight;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends kit’s JSON-RPC and parses u64 answers as exact bigints, over one kept-alive connection', async () => {
    const rpc = createKeepAliveLedgerRpc(url);
    const heights = [];
    for (let call = 0; call < 5; call += 1) {
      heights.push(await rpc.getBlockHeight({ commitment: 'confirmed' }).send());
    }
    expect(heights).toEqual(Array.from({ length: 5 }, () => BigInt(HEIGHT)));
    expect(connections).toBe(1);
  });

  it('retries once on a new connection when the node drops a kept-alive one under a request', async () => {
    const rpc = createKeepAliveLedgerRpc(url);
    await rpc.getBlockHeight().send();
    let dropped = false;
    handle = (request, response, body) => {
      if (!dropped) {
        dropped = true;
        request.socket.destroy();
        return;
      }
      answerBlockHeight(request, response, body);
    };
    await expect(rpc.getBlockHeight().send()).resolves.toBe(BigInt(HEIGHT));
    expect(dropped).toBe(true);
    expect(connections).toBe(2);
  });

  it('fails with kit’s HTTP transport error when the node answers outside 2xx', async () => {
    handle = (_request, response) => {
      response.writeHead(503, 'Service Unavailable', { 'retry-after': '1' }).end('busy');
    };
    const failure: unknown = await createKeepAliveLedgerRpc(url)
      .getBlockHeight()
      .send()
      .catch((error: unknown) => error);
    expect(isSolanaError(failure, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)).toBe(true);
    expect(failure).toMatchObject({ context: { statusCode: 503 } });
  });

  it('gives up at the caller’s abort signal', async () => {
    handle = () => undefined; // never answers
    const started = Date.now();
    await expect(
      createKeepAliveLedgerRpc(url)
        .getBlockHeight()
        .send({ abortSignal: AbortSignal.timeout(200) }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

function answerBlockHeight(_request: IncomingMessage, response: ServerResponse, body: string): void {
  const { id, method } = JSON.parse(body) as { id: string; method: string };
  expect(method).toBe('getBlockHeight');
  response
    .writeHead(200, { 'content-type': 'application/json' })
    .end(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${HEIGHT}}`);
}
