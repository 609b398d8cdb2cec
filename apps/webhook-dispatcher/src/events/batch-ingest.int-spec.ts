import { type Envelope, TransferConfirmed } from '@cts/contracts';
import { generateTestCertificates } from '@cts/testing';
import { DispatcherHarness } from '../testing/dispatcher-harness';
import { eventEnvelope, publishEvent, senderParty, transferPayload } from '../testing/event-factories';
import { EventIngestion } from './event-ingestion';

interface Counts {
  inbox: number;
  events: number;
  deliveries: number;
}

describe('events ingested in batches (real PostgreSQL)', () => {
  let harness: DispatcherHarness;
  let ingestion: EventIngestion;

  beforeAll(async () => {
    // No lanes: deliveries stay as ingested.
    harness = await DispatcherHarness.start(generateTestCertificates(), {}, { maxConcurrentAttempts: 0 });
    ingestion = harness.instance.service.app.get(EventIngestion);
  }, 30_000);

  afterAll(async () => {
    await harness.close();
  });

  /** `count` transfer.confirmed events of a new account with two webhooks. */
  async function scenario(name: string, count: number) {
    const { accountId, path } = harness.unique(name);
    await harness.subscribe(accountId, `${path}-a`);
    await harness.subscribe(accountId, `${path}-b`);
    const envelopes = Array.from({ length: count }, (_, i) =>
      eventEnvelope(
        TransferConfirmed,
        transferPayload({ transfer_id: `tr_${name}_${i}`, sender: senderParty(accountId, `@${name}`) }),
      ),
    );
    return { accountId, envelopes };
  }

  async function counts(envelopes: Envelope[]): Promise<Counts> {
    const ids = envelopes.map((e) => e.id);
    const [row] = await harness.dataSource.query<Counts[]>(
      `SELECT (SELECT count(*)::int FROM "webhooks"."inbox" WHERE message_id = ANY($1::uuid[])) AS inbox,
         (SELECT count(*)::int FROM "webhooks"."events" WHERE message_id = ANY($1::uuid[])) AS events,
         (SELECT count(*)::int FROM "webhooks"."deliveries" d JOIN "webhooks"."events" e ON e.id = d.event_id
          WHERE e.message_id = ANY($1::uuid[])) AS deliveries`,
      [ids],
    );
    return row ?? { inbox: -1, events: -1, deliveries: -1 };
  }

  it('stores a batch in one statement, a message twice in it or in a later batch only once', async () => {
    const { envelopes } = await scenario('dupes', 3);
    const [a, b, c] = envelopes as [Envelope, Envelope, Envelope];

    await ingestion.ingest([a, b, a, b]);
    expect(await counts(envelopes)).toEqual({ inbox: 2, events: 2, deliveries: 4 });

    await ingestion.ingest([b, c, a, c]);
    expect(await counts(envelopes)).toEqual({ inbox: 3, events: 3, deliveries: 6 });
    // One delivery per event and webhook, whatever the redeliveries.
    const perPair = await harness.dataSource.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM "webhooks"."deliveries" d JOIN "webhooks"."events" e ON e.id = d.event_id
       WHERE e.message_id = ANY($1::uuid[]) GROUP BY d.subscription_id, d.event_id`,
      [envelopes.map((e) => e.id)],
    );
    expect(perPair.map((r) => r.n)).toEqual(Array(6).fill(1));
  });

  it('leaves nothing of a batch that fails halfway, and stores it once when handed over again', async () => {
    const { envelopes } = await scenario('halfway', 5);
    const poison = envelopes[3]?.id ?? '';
    // The fourth event's row cannot be written: the statement fails after the first three were.
    await harness.dataSource.query(
      `CREATE FUNCTION "webhooks".refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN IF NEW.message_id = '${poison}' THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`,
    );
    await harness.dataSource.query(
      `CREATE TRIGGER refuse_poison BEFORE INSERT ON "webhooks"."events"
       FOR EACH ROW EXECUTE FUNCTION "webhooks".refuse_poison()`,
    );
    try {
      await expect(ingestion.ingest(envelopes)).rejects.toThrow('refused for the test');
      expect(await counts(envelopes)).toEqual({ inbox: 0, events: 0, deliveries: 0 });
    } finally {
      await harness.dataSource.query(`DROP TRIGGER refuse_poison ON "webhooks"."events"`);
      await harness.dataSource.query(`DROP FUNCTION "webhooks".refuse_poison()`);
    }

    await ingestion.ingest(envelopes);
    await ingestion.ingest(envelopes);
    expect(await counts(envelopes)).toEqual({ inbox: 5, events: 5, deliveries: 10 });
  });

  it('takes a burst from the bus in batches, redelivered messages included, each event once', async () => {
    const { envelopes } = await scenario('burst', 40);
    for (const envelope of [...envelopes, ...envelopes.slice(0, 10)]) {
      publishEvent(harness.instance.bus, TransferConfirmed, envelope);
    }
    await harness.instance.bus.drain();

    expect(await counts(envelopes)).toEqual({ inbox: 40, events: 40, deliveries: 80 });
    // Rows written by one statement share its transaction id: far fewer than one per event.
    const [{ statements }] = await harness.dataSource.query<[{ statements: number }]>(
      `SELECT count(DISTINCT xmin::text)::int AS statements FROM "webhooks"."events" WHERE message_id = ANY($1::uuid[])`,
      [envelopes.map((e) => e.id)],
    );
    expect(statements).toBeLessThan(5);
  });

  it('keeps the events API order of a batch as published (newest first)', async () => {
    const { accountId, envelopes } = await scenario('order', 6);
    await ingestion.ingest(envelopes);
    const rows = await harness.dataSource.query<{ transfer_id: string }[]>(
      `SELECT data->>'transfer_id' AS transfer_id FROM "webhooks"."events"
       WHERE account_ids @> ARRAY[$1::text] ORDER BY created_at DESC, id DESC`,
      [accountId],
    );
    expect(rows.map((r) => r.transfer_id)).toEqual([5, 4, 3, 2, 1, 0].map((i) => `tr_order_${i}`));
  });
});
