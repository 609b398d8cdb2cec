import { requestFingerprint } from '../../idempotency/idempotency.domain';
import { x402PaymentIdentity } from './x402-payment-identity.domain';

const entry = (overrides: Record<string, unknown> = {}) => ({
  scheme: 'exact',
  network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  asset: 'Gh9ZwEmdLJ8DscKNTkTqPbNwLNNBjuSzaG9Vp2KGtKJr',
  amount: '10000',
  payTo: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
  maxTimeoutSeconds: 60,
  extra: { feePayer: '2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4', recentBlockhash: 'first' },
  ...overrides,
});
const answer = (accepts: unknown[], error = 'Payment required') => ({
  x402Version: 2,
  error,
  resource: { url: 'https://api.example.com/weather' },
  accepts,
});
const header = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64');
const call = (paymentRequired: unknown, more: Record<string, unknown> = {}) => ({
  payment_required: paymentRequired,
  resource: 'https://api.example.com/weather',
  received_at: '2026-01-01T00:00:00.000Z',
  ...more,
});
const same = (a: unknown, b: unknown) =>
  requestFingerprint('POST', '/v1/agents/x402/payments', x402PaymentIdentity(a)) ===
  requestFingerprint('POST', '/v1/agents/x402/payments', x402PaymentIdentity(b));

describe('x402PaymentIdentity', () => {
  it('is the same payment when a retry received the 402 later, with a new blockhash or error text', () => {
    const first = call(header(answer([entry()])));
    const retry = call(
      header(answer([entry({ extra: { recentBlockhash: 'second' } })], 'Payment required again')),
      { received_at: '2026-01-01T00:00:42.000Z' },
    );
    expect(same(first, retry)).toBe(true);
    expect(same(first, call(answer([entry()])))).toBe(true);
  });

  it('is another payment for another resource, payee, asset, amount or held transaction', () => {
    const first = call(answer([entry()]));
    expect(same(first, call(answer([entry({ amount: '20000' })])))).toBe(false);
    expect(
      same(first, call(answer([entry({ payTo: '2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4' })]))),
    ).toBe(false);
    expect(same(first, call(answer([entry()]), { resource: 'https://api.example.com/other' }))).toBe(false);
    expect(same(first, call(answer([entry()]), { approved_transaction_id: 'atx_1' }))).toBe(false);
  });

  it('takes any body without throwing (it runs before validation)', () => {
    for (const body of [
      null,
      'text',
      [1],
      {},
      { payment_required: 'not base64!' },
      { payment_required: 7 },
    ]) {
      expect(() => x402PaymentIdentity(body)).not.toThrow();
    }
  });
});
