import { type DeliveryState, toDeliveryResource } from './delivery.domain';

const at = new Date('2026-01-01T00:00:00.000Z');

describe('toDeliveryResource', () => {
  const base: DeliveryState = {
    id: 'dlv_1',
    subscriptionId: 'wh_1',
    eventId: 'evt_1',
    eventType: 'transfer.confirmed',
    status: 'pending',
    attemptCount: 3,
    firstAttemptAt: at,
    lastAttemptAt: new Date(at.getTime() + 3000),
    lastStatusCode: 500,
    nextAttemptAt: new Date(at.getTime() + 7000),
    createdAt: at,
  };

  it('shows status, attempt and retry counts, the last status code and the timing', () => {
    expect(toDeliveryResource(base)).toEqual({
      delivery_id: 'dlv_1',
      webhook_id: 'wh_1',
      event_id: 'evt_1',
      event: 'transfer.confirmed',
      status: 'pending',
      attempt_count: 3,
      retry_count: 2,
      response_status_code: 500,
      last_attempt_at: '2026-01-01T00:00:03.000Z',
      next_attempt_at: '2026-01-01T00:00:07.000Z',
      created_at: '2026-01-01T00:00:00.000Z',
    });
  });

  it('counts no retry before the first attempt', () => {
    expect(
      toDeliveryResource({ ...base, attemptCount: 0, lastAttemptAt: null, lastStatusCode: null }),
    ).toMatchObject({
      attempt_count: 0,
      retry_count: 0,
      last_attempt_at: null,
      response_status_code: null,
    });
  });
});
