import { type UnitOfWork } from '@cts/persistence';
import { type DeliveryRepository } from '../deliveries/delivery.repository';
import { type DispatcherSettings } from '../dispatcher.settings';
import { type EventRepository, type StoredEvent } from '../events/event.repository';
import { EndpointHealth } from './endpoint-health';
import { type SubscriptionRepository } from './subscription.repository';

const DAY = 24 * 60 * 60 * 1000;
const failingSince = new Date('2026-03-01T00:00:00.000Z');
const attemptStarted = new Date(failingSince.getTime() + 5 * DAY);
// The fatal attempt timed out: the endpoint is disabled (and the event recorded) 10 s after it began.
const recordedAt = new Date(attemptStarted.getTime() + 10_000);

describe('EndpointHealth disabling a failing endpoint', () => {
  it('stamps webhook.endpoint.disabled when it is recorded, not when the fatal attempt began', async () => {
    const disabledAt: Date[] = [];
    const recorded: { event: StoredEvent; body: string }[] = [];
    const subscriptions = {
      disableFailing: (id: string, _since: Date, at: Date) => {
        disabledAt.push(at);
        return Promise.resolve({ id, accountId: 'acct_a', environment: 'test', url: 'https://h.example/' });
      },
    } as unknown as SubscriptionRepository;
    const deliveries = { pause: () => Promise.resolve() } as unknown as DeliveryRepository;
    const events = {
      recordInternal: (event: StoredEvent, body: string) => {
        recorded.push({ event, body });
        return Promise.resolve([]);
      },
    } as unknown as EventRepository;
    const unitOfWork = {
      run: (work: (tx: { manager: object }) => Promise<void>) => work({ manager: {} }),
    } as unknown as UnitOfWork;
    const settings = { clock: { now: () => recordedAt }, disableAfterMs: 5 * DAY } as DispatcherSettings;
    const health = new EndpointHealth(unitOfWork, subscriptions, deliveries, events, settings);

    await health.afterAttempt(
      {
        subscriptionId: 'wh_1',
        accountId: 'acct_a',
        environment: 'test',
        url: 'https://h.example/',
        body: JSON.stringify({ account: '@a' }),
        failingSince,
      },
      false,
      attemptStarted,
    );

    expect(disabledAt).toEqual([recordedAt]);
    const [{ event, body } = { event: undefined, body: '{}' }] = recorded;
    expect(event).toMatchObject({ createdAt: recordedAt, occurredAt: recordedAt });
    expect(JSON.parse(body)).toMatchObject({
      event: 'webhook.endpoint.disabled',
      timestamp: recordedAt.toISOString(),
      disabled_at: recordedAt.toISOString(),
      failing_since: failingSince.toISOString(),
    });
  });
});
