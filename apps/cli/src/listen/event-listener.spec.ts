import { verifyWebhookSignature } from '@cts/sdk';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen } from './event-listener';

// What webhook-dispatcher sends, byte for byte (its order: event_id, event, account, timestamp, then
// created_at when the type has one, then the type's fields). The dispatcher's event-api spec checks
// that the events API serves each event in this same order.
const TRANSFER_DELIVERY =
  '{"event_id":"evt_t1","event":"transfer.confirmed","account":"@alice","timestamp":"2026-01-02T03:04:06.000Z","created_at":"2026-01-02T03:04:05.000Z","transfer_id":"tr_1","status":"confirmed","direction":"sent","counterparty":"@bob","asset":"USDC","confidential":true,"chain_signature":"5sig","confirmed_at":"2026-01-02T03:04:06.000Z"}';
const APPROVAL_DELIVERY =
  '{"event_id":"evt_a1","event":"agent.transaction.pending_approval","account":"@alice","timestamp":"2026-01-02T03:04:07.000Z","transaction_id":"atx_1","status":"pending_approval","agent":"@alice/bot","agent_account_id":"acct_bot","owner":"@alice","to":"shop.example.com","asset":"USDC","requested_at":"2026-01-02T03:04:07.000Z","expires_at":"2026-01-02T04:04:07.000Z","decided_at":null,"transfer_id":null}';

/** The events API as the gateway serves it: created_at fifth, added when the delivery has none. */
function served(delivery: string, recordedAt: string): Record<string, unknown> {
  const { event_id, event, account, timestamp, created_at, ...fields } = JSON.parse(delivery) as Record<
    string,
    unknown
  >;
  return { event_id, event, account, timestamp, created_at: created_at ?? recordedAt, ...fields };
}

/** A stand-in for the events API and a local receiver, on one fetch. */
class FakeService {
  events: Record<string, unknown>[] = [];
  received: { body: string; headers: Record<string, string> }[] = [];
  lists = 0;

  readonly fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname === '/hooks') {
      this.received.push({
        body: typeof init?.body === 'string' ? init.body : '',
        headers: init?.headers as Record<string, string>,
      });
      return Promise.resolve(new Response(null, { status: 204 }));
    }
    this.lists += 1;
    const after = url.searchParams.get('created_after') ?? '';
    const types = url.searchParams.getAll('type');
    const events = this.events
      .filter((e) => String(e.created_at) > after && (types.length === 0 || types.includes(String(e.event))))
      .sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)));
    return Promise.resolve(Response.json({ events, has_more: false }));
  };
}

describe('cts listen', () => {
  let dir: string;
  let service: FakeService;
  const lines: string[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cts-listen-spec-'));
    service = new FakeService();
    lines.length = 0;
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs until `until` holds after a poll (or 200 polls), then stops. */
  async function run(types: string[], until: () => boolean): Promise<void> {
    const stop = new AbortController();
    const fetch = (input: string | URL | Request, init?: RequestInit) => {
      if (until() || service.lists > 200) {
        stop.abort();
      }
      return service.fetch(input, init);
    };
    await listen({
      baseUrl: 'http://api.test',
      apiKey: 'svc_test_key',
      forwardTo: 'http://localhost:3000/hooks',
      types,
      statePath: join(dir, 'state.json'),
      intervalMs: 1,
      fetch: fetch as typeof globalThis.fetch,
      print: (line) => lines.push(line),
      signal: stop.signal,
    });
  }

  const recent = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();

  it('forwards byte for byte what a delivery carries: its own created_at kept, the added one dropped', async () => {
    await run([], () => service.lists > 0);
    const transfer = JSON.parse(TRANSFER_DELIVERY) as Record<string, unknown>;
    service.events.push(
      served(JSON.stringify({ ...transfer, created_at: recent(1) }), recent(1)),
      served(APPROVAL_DELIVERY, recent(0)),
    );

    await run([], () => service.received.length >= 2);

    expect(service.received.map((r) => r.body)).toEqual([
      JSON.stringify({ ...transfer, created_at: service.events[0]?.created_at }),
      APPROVAL_DELIVERY,
    ]);
    const secret = /signing secret is (whsec_\S+)/.exec(lines.join('\n'))?.[1] ?? '';
    for (const { body, headers } of service.received) {
      expect(verifyWebhookSignature(secret, body, headers)).toBe(true);
    }
  });

  it('forwards an event that became visible behind the newest one it forwarded, once', async () => {
    await run([], () => service.lists > 0);
    service.events.push(served(APPROVAL_DELIVERY, recent(1)));
    await run([], () => service.received.length >= 1);
    // Stamped 3 s ago, visible only now (committed late, or a transfer's created_at).
    service.events.push(
      served(
        TRANSFER_DELIVERY.replace('"created_at":"2026-01-02T03:04:05.000Z"', `"created_at":"${recent(3)}"`),
        '',
      ),
    );

    await run([], () => service.received.length >= 2);
    await run([], () => service.lists > 3);

    expect(service.received.map((r) => (JSON.parse(r.body) as { event_id: string }).event_id)).toEqual([
      'evt_a1',
      'evt_t1',
    ]);
  });

  it('keeps a position per event filter: a filtered run does not skip other types for an unfiltered one', async () => {
    await run([], () => service.lists > 0);
    service.events.push(served(APPROVAL_DELIVERY, recent(2)));
    service.events.push(
      served(
        TRANSFER_DELIVERY.replace('"created_at":"2026-01-02T03:04:05.000Z"', `"created_at":"${recent(1)}"`),
        '',
      ),
    );

    await run(['transfer.confirmed'], () => service.lists > 2);
    // A first run with this filter starts from now: it forwards nothing that happened before.
    expect(service.received).toHaveLength(0);
    await run([], () => service.received.length >= 2);

    expect(service.received.map((r) => (JSON.parse(r.body) as { event: string }).event)).toEqual([
      'agent.transaction.pending_approval',
      'transfer.confirmed',
    ]);
    const secrets = new Set(lines.filter((l) => l.includes('signing secret')));
    expect(secrets.size).toBe(1);
  });
});
