import { internalTokenCheck } from '../security/internal-token';
import { metricsRegistry } from './metrics';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface MetricsServer {
  /** `http://127.0.0.1:<port>`: `/metrics` there. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** A JSON body posted to the internal port: true when taken (204), false when not wanted here (404). */
export type InternalPostRoute = (body: unknown) => boolean;

const MAX_INTERNAL_BODY = 8 * 1024 * 1024;

/**
 * Prometheus metrics on a port of their own (METRICS_PORT), never on the public API port: the
 * cluster's scraper reaches it, an ingress does not. Answers `GET /metrics`, a JSON `POST` to one of
 * `routes` (internal traffic between the app's processes; with `internalToken`, only a post that
 * carries it, 401 otherwise), and 404 to anything else.
 */
export async function startMetricsServer(
  port: number,
  host = '0.0.0.0',
  routes: Record<string, InternalPostRoute> = {},
  internalToken?: string,
): Promise<MetricsServer> {
  const allowed = internalTokenCheck(internalToken);
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const route = req.method === 'POST' ? routes[path] : undefined;
    if (route) {
      // Refused before its body is read: a post without the token costs no parsing.
      if (!allowed(req.headers.authorization)) {
        res.writeHead(401).end();
        return;
      }
      readJson(req).then(
        (body) => res.writeHead(route(body) ? 204 : 404).end(),
        () => res.writeHead(400).end(),
      );
      return;
    }
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metricsRegistry
      .metrics()
      .then((body) => res.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(body))
      .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_INTERNAL_BODY) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
      } catch {
        reject(new Error('the body is not JSON'));
      }
    });
    req.on('error', reject);
  });
}
