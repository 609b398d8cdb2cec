import {
  AgentCreated,
  AgentTransactionPendingApproval,
  type Envelope,
  type EventContract,
  GetEvent,
  TransferConfirmed,
} from '@cts/contracts';
import { type DeliveryScheduler } from '../attempts/delivery-scheduler';
import { type DispatcherSettings } from '../dispatcher.settings';
import { approvalPayload, eventEnvelope, party, transferPayload } from '../testing/event-factories';
import { toEventResource } from './event-api.handlers';
import { EventIngestion } from './event-ingestion';
import { type EventRepository, type IngestedEvent } from './event.repository';

const RECORDED_AT = new Date('2026-01-02T03:09:00.000Z');
const TRANSFER_TIMES = { created_at: '2026-01-02T03:04:05.000Z', confirmed_at: '2026-01-02T03:04:06.000Z' };

/** Ingests one envelope with the dispatcher's own code; returns what it stored and each delivery body. */
async function ingest(envelope: Envelope): Promise<IngestedEvent> {
  const batches: IngestedEvent[][] = [];
  const repository = {
    ingestBatch: (_consumer: string, events: IngestedEvent[]) => {
      batches.push(events);
      return Promise.resolve({ endpoints: [] });
    },
  } as unknown as EventRepository;
  const scheduler = { kickFor: () => undefined } as unknown as DeliveryScheduler;
  const settings = { clock: { now: () => RECORDED_AT } } as DispatcherSettings;
  await new EventIngestion(repository, scheduler, 'webhook-dispatcher', settings).ingest([envelope]);
  const [ingested] = batches.flat();
  if (!ingested) {
    throw new Error('nothing ingested');
  }
  return ingested;
}

/** The event as the gateway hands it on: through the contract's reply schema, then JSON. */
const asServed = (resource: unknown) => JSON.stringify(GetEvent.response.parse(resource));

describe('the events API against the deliveries of the same event', () => {
  const agentCreated = () =>
    eventEnvelope(AgentCreated as EventContract, {
      agent: party('acct_bot', '@alice/bot'),
      owner: party('acct_alice', '@alice'),
      spend_policy_id: 'pol_1',
      created_at: '2026-01-02T03:04:05.000Z',
    });

  it.each([
    [
      'transfer.confirmed',
      () => eventEnvelope(TransferConfirmed, transferPayload(TRANSFER_TIMES)),
      'acct_alice',
    ],
    [
      'transfer.confirmed, for the recipient',
      () => eventEnvelope(TransferConfirmed, transferPayload(TRANSFER_TIMES)),
      'acct_bob',
    ],
    ['agent.created', agentCreated, 'acct_alice'],
  ])(
    '%s: the event is its delivery body, byte for byte, and is listed by the created_at it shows',
    async (_case, envelope, accountId) => {
      const { event, bodies } = await ingest(envelope());
      const body = bodies.find((b) => b.accountId === accountId)?.body ?? '';
      const delivery = JSON.parse(body) as Record<string, unknown>;
      const resource = toEventResource(event, accountId) as Record<string, unknown>;

      for (const [field, value] of Object.entries(delivery)) {
        expect([field, resource[field]]).toEqual([field, value]);
      }
      expect(Object.keys(resource).sort()).toEqual(Object.keys(delivery).sort());
      // The transfer's (or agent's) own creation time, not when the dispatcher recorded the event.
      expect(resource.created_at).toBe('2026-01-02T03:04:05.000Z');
      expect(event.createdAt.toISOString()).toBe(resource.created_at);
      expect(asServed(resource)).toBe(body);
    },
  );

  it('adds created_at, when the event was recorded, to an event whose deliveries have none', async () => {
    const { event, bodies } = await ingest(
      eventEnvelope(AgentTransactionPendingApproval as EventContract, approvalPayload()),
    );
    const body = bodies.find((b) => b.accountId === 'acct_alice')?.body ?? '';
    const delivery = JSON.parse(body) as Record<string, unknown>;
    const resource = toEventResource(event, 'acct_alice') as Record<string, unknown>;

    expect(delivery).not.toHaveProperty('created_at');
    expect(resource).toEqual({ ...delivery, created_at: RECORDED_AT.toISOString() });
    expect(event.createdAt).toEqual(RECORDED_AT);
    const { created_at: _recorded, ...served } = JSON.parse(asServed(resource)) as Record<string, unknown>;
    expect(JSON.stringify(served)).toBe(body);
  });
});
