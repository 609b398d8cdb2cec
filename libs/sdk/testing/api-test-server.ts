// Test-only (outside src/, so never built): a real HTTP server on port 0 that records requests and
// answers from a script, to test the client over the wire rather than against a mocked fetch.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type ScriptedReply =
  { status: number; body?: unknown; headers?: Record<string, string>; raw?: string } | 'destroy' | 'hang';

export interface ApiTestServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Queues replies; once the queue is empty every request gets `200 {}`. */
  reply(...replies: ScriptedReply[]): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startApiTestServer(): Promise<ApiTestServer> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedReply[] = [];
  const hung: { destroy(): void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const reply = queue.shift() ?? { status: 200, body: {} };
      if (reply === 'destroy') {
        req.socket.destroy();
        return;
      }
      if (reply === 'hang') {
        hung.push(req.socket);
        return;
      }
      const payload = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
      res.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    reply: (...replies) => queue.push(...replies),
    reset: () => {
      requests.length = 0;
      queue.length = 0;
      // Only the hung sockets: closing idle keep-alive ones would fail the next test's first attempt.
      hung.splice(0).forEach((socket) => socket.destroy());
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
