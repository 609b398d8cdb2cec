import { metricsRegistry } from './metrics';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface MetricsServer {
  /** `http://127.0.0.1:<port>`: `/metrics` there. */
  url: string;
  close(): Promise<void>;
}

/**
 * Prometheus metrics on a port of their own (METRICS_PORT), never on the public API port: the
 * cluster's scraper reaches it, an ingress does not. Answers `GET /metrics` and 404 to anything else.
 */
export async function startMetricsServer(port: number, host = '0.0.0.0'): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
