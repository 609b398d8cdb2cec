import { eventually, generateTestCertificates } from '@cts/testing';
import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import { type AddressInfo } from 'node:net';
import { DestinationGuard } from '../ssrf/destination-guard';
import { testResolver } from '../testing/dispatcher-harness';
import { WebhookHttpClient } from './webhook-http-client';

const certificates = generateTestCertificates(['receiver.test']);

/** An HTTPS receiver on 127.0.0.1 and 127.0.0.2 (one port), counting connections by local address. */
class CountingReceiver {
  readonly connections: string[] = [];
  readonly requests: { path: string; address: string }[] = [];
  open = 0;
  maxOpen = 0;
  delayMs = 0;
  port = 0;
  private readonly servers: Server[] = [];

  async start(): Promise<this> {
    for (const host of ['127.0.0.1', '127.0.0.2']) {
      const server = createServer({ key: certificates.key, cert: certificates.cert }, (req, res) => {
        req.resume();
        req.on('end', () => {
          this.requests.push({ path: req.url ?? '', address: req.socket.localAddress ?? '' });
          setTimeout(() => {
            if (req.url === '/redirect') {
              res.writeHead(302, { location: '/elsewhere' });
            } else {
              res.writeHead(204);
            }
            res.end();
          }, this.delayMs);
        });
      });
      server.on('secureConnection', (socket) => {
        this.connections.push(socket.localAddress ?? '');
        this.open += 1;
        this.maxOpen = Math.max(this.maxOpen, this.open);
        socket.on('close', () => (this.open -= 1));
      });
      server.listen(this.port, host);
      await once(server, 'listening');
      this.port = (server.address() as AddressInfo).port;
      this.servers.push(server);
    }
    return this;
  }

  url(path: string): string {
    return `https://receiver.test:${this.port}${path}`;
  }

  async close(): Promise<void> {
    for (const server of this.servers) {
      server.closeAllConnections();
      server.close();
    }
    await Promise.all(this.servers.map((server) => once(server, 'close')));
  }
}

describe('the webhook HTTP client: kept-alive connections under the SSRF guard', () => {
  let receiver: CountingReceiver;
  let client: WebhookHttpClient;
  let dns: Map<string, string>;
  const post = (path: string) =>
    client.post(receiver.url(path), '{}', { 'content-type': 'application/json' });

  beforeEach(async () => {
    receiver = await new CountingReceiver().start();
    dns = new Map([['receiver.test', '127.0.0.1']]);
    client = new WebhookHttpClient({
      timeoutMs: 5000,
      // Private networks allowed (the receiver is on loopback); metadata addresses never are.
      guard: new DestinationGuard(testResolver(dns), true),
      connectionsPerEndpoint: 2,
      extraCa: certificates.ca,
    });
  });

  afterEach(async () => {
    await client.close();
    await receiver.close();
  });

  it('sends consecutive deliveries to one endpoint over its kept-alive connections', async () => {
    for (let i = 0; i < 10; i++) {
      expect(await post('/reuse')).toMatchObject({ statusCode: 204, error: null });
    }
    expect(receiver.requests).toHaveLength(10);
    // undici's pool may take its second connection for a request sent right after an answer.
    expect(receiver.connections.length).toBeLessThanOrEqual(2);
    expect(new Set(receiver.connections)).toEqual(new Set(['127.0.0.1']));
  });

  it('does not use the pooled connection once the host resolves to a refused address', async () => {
    expect(await post('/before')).toMatchObject({ statusCode: 204 });
    expect(receiver.open).toBe(1);
    dns.set('receiver.test', '169.254.169.254');

    const refused = await post('/after');

    expect(refused).toMatchObject({
      statusCode: null,
      errorCode: 'destination_refused',
      error: expect.stringMatching(/metadata address/),
    });
    // The idle connection to 127.0.0.1 was there, and nothing was sent over it.
    expect(receiver.requests.map((r) => r.path)).toEqual(['/before']);
    expect(receiver.connections).toEqual(['127.0.0.1']);
  });

  it('does not use the pooled connection once the host no longer resolves', async () => {
    expect(await post('/before')).toMatchObject({ statusCode: 204 });
    dns.delete('receiver.test');

    expect(await post('/after')).toMatchObject({ statusCode: null, errorCode: 'dns_error' });
    expect(receiver.requests.map((r) => r.path)).toEqual(['/before']);
  });

  it('connects anew to the new address when DNS moves, and closes the old connections', async () => {
    expect(await post('/first')).toMatchObject({ statusCode: 204 });
    dns.set('receiver.test', '127.0.0.2');

    for (let i = 0; i < 4; i++) {
      expect(await post('/moved')).toMatchObject({ statusCode: 204 });
    }

    expect(receiver.requests.map((r) => r.address)).toEqual(['127.0.0.1', ...Array(4).fill('127.0.0.2')]);
    expect(receiver.connections[0]).toBe('127.0.0.1');
    const moved = receiver.connections.slice(1);
    expect(moved.length).toBeGreaterThanOrEqual(1);
    expect(moved.length).toBeLessThanOrEqual(2);
    expect(new Set(moved)).toEqual(new Set(['127.0.0.2']));
    // The old address's idle connection is closed; only the new address's stay open.
    await eventually(() => expect(receiver.open).toBe(moved.length), 3000);
  });

  it('opens at most the per-endpoint number of connections, however many deliveries are in flight', async () => {
    receiver.delayMs = 100;

    const outcomes = await Promise.all(Array.from({ length: 8 }, () => post('/capped')));

    expect(outcomes.map((o) => o.statusCode)).toEqual(Array(8).fill(204));
    expect(receiver.maxOpen).toBe(2);
    expect(receiver.connections).toHaveLength(2);
  });

  it('reuses connections to an IP literal endpoint too (no DNS involved)', async () => {
    const url = `https://127.0.0.1:${receiver.port}/literal`;
    for (let i = 0; i < 4; i++) {
      expect(await client.post(url, '{}', {})).toMatchObject({ statusCode: 204, error: null });
    }
    expect(receiver.connections.length).toBeLessThanOrEqual(2);
  });

  it('does not follow a redirect: the 3xx is the answer, and its Location is not requested', async () => {
    expect(await post('/redirect')).toMatchObject({ statusCode: 302, error: null });
    expect(await post('/redirect')).toMatchObject({ statusCode: 302 });

    expect(receiver.requests.map((r) => r.path)).toEqual(['/redirect', '/redirect']);
  });
});
