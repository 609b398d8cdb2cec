import { type AttemptRecord, type DeliveryState, toDeliveryResource } from './delivery.domain';

const at = new Date('2026-01-01T00:00:00.000Z');
const later = (ms: number) => new Date(at.getTime() + ms);

describe('toDeliveryResource', () => {
  const base: DeliveryState = {
    id: 'dlv_1',
    subscriptionId: 'wh_1',
    eventId: 'evt_1',
    eventType: 'transfer.confirmed',
    status: 'pending',
    attemptCount: 3,
    firstAttemptAt: at,
    lastAttemptAt: later(3000),
    lastStatusCode: 500,
    nextAttemptAt: later(7000),
    failureReason: null,
    createdAt: at,
  };
  const attempts: AttemptRecord[] = [
    { attemptNumber: 3, attemptedAt: later(3000), durationMs: 41, statusCode: 500, errorCode: null },
    { attemptNumber: 1, attemptedAt: at, durationMs: 2001, statusCode: null, errorCode: 'timeout' },
    {
      attemptNumber: 2,
      attemptedAt: later(1000),
      durationMs: 3,
      statusCode: null,
      errorCode: 'connection_refused',
    },
  ];

  it('shows status, attempt and retry counts, the last status code, the timing and every attempt in order', () => {
    expect(toDeliveryResource(base, attempts)).toEqual({
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
      failure_reason: null,
      attempts: [
        {
          attempt_number: 1,
          attempted_at: '2026-01-01T00:00:00.000Z',
          duration_ms: 2001,
          response_status_code: null,
          error: 'timeout',
        },
        {
          attempt_number: 2,
          attempted_at: '2026-01-01T00:00:01.000Z',
          duration_ms: 3,
          response_status_code: null,
          error: 'connection_refused',
        },
        {
          attempt_number: 3,
          attempted_at: '2026-01-01T00:00:03.000Z',
          duration_ms: 41,
          response_status_code: 500,
          error: null,
        },
      ],
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
      attempts: [],
    });
  });

  it('says why a failed delivery stopped', () => {
    expect(
      toDeliveryResource({ ...base, status: 'failed', nextAttemptAt: null, failureReason: 'endpoint_gone' }),
    ).toMatchObject({ status: 'failed', failure_reason: 'endpoint_gone', next_attempt_at: null });
  });

  it('reads an attempt without an answer and without a known code as a connection error', () => {
    const [attempt] = toDeliveryResource(base, [
      { attemptNumber: 1, attemptedAt: at, durationMs: 5, statusCode: null, errorCode: null },
    ]).attempts;
    expect(attempt?.error).toBe('connection_error');
  });

  it('never carries a response body', () => {
    const withBody = { ...attempts[0], responseBody: 'token=s3cr3t' } as AttemptRecord;
    expect(JSON.stringify(toDeliveryResource(base, [withBody]))).not.toContain('s3cr3t');
  });
});
