import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

export interface CannedResponse {
  readonly status: number;
  /** A string is sent as is (to play a proxy's HTML page); anything else as JSON. */
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

/** A local HTTP server that plays the gateway: records every request, answers canned responses. */
export class FakeApi {
  readonly requests: RecordedRequest[] = [];
  private readonly routes = new Map<string, CannedResponse>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeApi> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const api = new FakeApi(server, `http://127.0.0.1:${port}`);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      void api.handle(request, response);
    });
    return api;
  }

  respond(
    method: string,
    path: string,
    status: number,
    body: unknown,
    headers?: Record<string, string>,
  ): this {
    this.routes.set(`${method} ${path}`, { status, body, ...(headers ? { headers } : {}) });
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.closeAllConnections();
      this.server.close((error) => (error ? reject(error) : resolve()));
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) {
      chunks.push(chunk as Buffer);
    }
    const raw = Buffer.concat(chunks).toString('utf8');
    const method = request.method ?? '';
    const path = request.url ?? '';
    this.requests.push({
      method,
      path,
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
      body: raw === '' ? undefined : (JSON.parse(raw) as unknown),
    });
    const canned = this.routes.get(`${method} ${path}`) ?? {
      status: 404,
      body: { error: { code: 'not_found', message: `no route ${method} ${path}`, request_id: 'req_fake' } },
    };
    const isText = typeof canned.body === 'string';
    response.writeHead(canned.status, {
      'content-type': isText ? 'text/html' : 'application/json',
      ...canned.headers,
    });
    response.end(isText ? canned.body : JSON.stringify(canned.body));
  }
}
