import { createServer, type Server } from 'node:https';
import { type IncomingHttpHeaders } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type TestCertificates } from './test-certificates';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

export interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** Decides the answer to one request; `index` counts the requests to this path from 0. */
export type Responder = (request: ReceivedRequest, index: number) => Reply;

/** A real HTTPS endpoint on 127.0.0.1 that records every request and answers as told, per path. */
export class HttpsReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly responders = new Map<string, Responder>();
  private server: Server | undefined;
  port = 0;

  constructor(private readonly certificates: TestCertificates) {}

  async start(): Promise<this> {
    this.server = createServer({ key: this.certificates.key, cert: this.certificates.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const received: ReceivedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          receivedAt: Date.now(),
        };
        const index = this.requests.filter((r) => r.path === received.path).length;
        this.requests.push(received);
        const responder: Responder = this.responders.get(received.path) ?? (() => ({ status: 204 }));
        const reply = responder(received, index);
        setTimeout(() => {
          res.writeHead(reply.status, reply.headers);
          res.end(reply.body ?? '');
        }, reply.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** `https://<host>:<port><path>`; the certificate names 127.0.0.1 and localhost (and any extra names). */
  url(path: string, host = '127.0.0.1'): string {
    return `https://${host}:${this.port}${path}`;
  }

  on(path: string, responder: Responder): void {
    this.responders.set(path, responder);
  }

  received(path: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
