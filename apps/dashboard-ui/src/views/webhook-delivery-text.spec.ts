import { type WebhookDelivery, type WebhookDeliveryAttempt } from '@cts/sdk';
import { deliveryResponse, failureText } from './webhook-delivery-text';

const attempt = (
  number: number,
  status: number | null,
  error: string | null = null,
): WebhookDeliveryAttempt => ({
  attempt_number: number,
  attempted_at: '2026-01-10T12:00:00.000Z',
  duration_ms: 10,
  response_status_code: status,
  error,
});

const delivery = (fields: Partial<WebhookDelivery>): WebhookDelivery => ({
  delivery_id: 'dlv_1',
  event_id: 'evt_1',
  event: 'transfer.confirmed',
  status: 'pending',
  retry_count: 0,
  attempt_count: 0,
  response_status_code: null,
  attempts: [],
  ...fields,
});

describe('deliveryResponse', () => {
  it("shows the last attempt's HTTP status", () => {
    expect(deliveryResponse(delivery({ response_status_code: 204, attempt_count: 1 }))).toEqual({
      text: '204',
      tone: 'ok',
    });
    expect(deliveryResponse(delivery({ response_status_code: 500, attempt_count: 1 }))).toEqual({
      text: '500',
      tone: 'rejected',
    });
  });

  it('says why nothing answered: the last attempt’s network error', () => {
    const timedOut = delivery({
      attempt_count: 2,
      retry_count: 1,
      attempts: [attempt(2, null, 'timeout'), attempt(1, null, 'dns_error')],
    });
    expect(deliveryResponse(timedOut)).toEqual({ text: 'no answer: timed out (timeout)', tone: 'rejected' });
    for (const [error, words] of [
      ['connection_refused', 'connection refused'],
      ['connection_error', 'connection failed'],
      ['tls_error', 'TLS handshake failed'],
      ['destination_refused', 'address not allowed'],
    ]) {
      const refused = delivery({ attempt_count: 1, attempts: [attempt(1, null, error)] });
      expect(deliveryResponse(refused).text).toBe(`no answer: ${words} (${error})`);
    }
  });

  it('is "not sent yet" before any attempt', () => {
    expect(deliveryResponse(delivery({}))).toEqual({ text: 'not sent yet' });
  });
});

describe('failureText', () => {
  it('says why a delivery failed for good', () => {
    expect(failureText(delivery({ status: 'failed', failure_reason: 'endpoint_gone' }))).toBe(
      'the endpoint answered 410 Gone (endpoint_gone)',
    );
    expect(failureText(delivery({ status: 'failed', failure_reason: 'retries_exhausted' }))).toBe(
      'retries exhausted (retries_exhausted)',
    );
    expect(failureText(delivery({ status: 'pending' }))).toBeUndefined();
  });
});
