import { PayX402, ReportX402Settlement } from '@cts/contracts';
import { InProcessBus } from '@cts/messaging';
import request from 'supertest';
import {
  bearer,
  seedAccount,
  type SeededAccount,
  startTestGateway,
  type TestGateway,
} from '../../testing/test-gateway';
import { FakeX402Service } from './fake-x402-service';

const RESOURCE = 'https://api.example.com/weather';
const quote = (amount = '10000', recentBlockhash = 'first') => ({
  x402Version: 2,
  resource: { url: RESOURCE },
  accepts: [
    {
      scheme: 'exact',
      network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      asset: 'Gh9ZwEmdLJ8DscKNTkTqPbNwLNNBjuSzaG9Vp2KGtKJr',
      amount,
      payTo: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
      maxTimeoutSeconds: 60,
      extra: { feePayer: '2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4', recentBlockhash },
    },
  ],
});

describe('POST /v1/agents/x402/payments', () => {
  let gateway: TestGateway;
  let x402: FakeX402Service;
  let agent: SeededAccount;

  const pay = (body: object, idempotencyKey?: string) => {
    const call = request(gateway.url).post('/v1/agents/x402/payments').set(bearer(agent.keys.test.secret));
    return (idempotencyKey === undefined ? call : call.set('Idempotency-Key', idempotencyKey)).send(body);
  };

  beforeEach(async () => {
    const bus = new InProcessBus();
    x402 = new FakeX402Service(bus);
    gateway = await startTestGateway({ bus });
    agent = seedAccount(gateway.accounts, '@alice', { type: 'agent' });
  });

  afterEach(async () => {
    await gateway.close();
  });

  it.each([
    ['a resource with a NUL', { resource: `${RESOURCE}\u0000` }, 'resource'],
    ['a resource with a control character', { resource: `${RESOURCE}\u001b[2J` }, 'resource'],
    [
      'an approved transaction id with a NUL',
      { approved_transaction_id: 'atx_\u0000' },
      'approved_transaction_id',
    ],
  ])('refuses %s with 400 before anything is paid', async (_, more, param) => {
    const res = await pay({ payment_required: quote(), resource: RESOURCE, ...more }).expect(400);

    expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
    expect(x402.calls(PayX402)).toHaveLength(0);
  });

  it('answers a retry with the same Idempotency-Key with the first payment, though received later and quoted anew', async () => {
    const first = await pay(
      { payment_required: quote(), resource: RESOURCE, received_at: '2030-01-01T00:00:00.000Z' },
      'pay-once',
    ).expect(200);

    const retry = await pay(
      {
        payment_required: quote('10000', 'second'),
        resource: RESOURCE,
        received_at: '2030-01-01T00:00:09.000Z',
      },
      'pay-once',
    ).expect(200);

    expect(retry.body).toEqual(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(x402.calls(PayX402)).toHaveLength(1);
  });

  it('refuses another payment with the same Idempotency-Key: 422 idempotency_key_reused', async () => {
    await pay({ payment_required: quote(), resource: RESOURCE }, 'pay-once').expect(200);

    const other = await pay({ payment_required: quote('20000'), resource: RESOURCE }, 'pay-once').expect(422);

    expect(other.body.error).toMatchObject({ code: 'idempotency_key_reused' });
    expect(x402.calls(PayX402)).toHaveLength(1);
  });
});

describe('POST /v1/agents/x402/payments/{payment_id}/settlement', () => {
  let gateway: TestGateway;
  let x402: FakeX402Service;
  let agent: SeededAccount;

  beforeEach(async () => {
    const bus = new InProcessBus();
    x402 = new FakeX402Service(bus);
    gateway = await startTestGateway({ bus });
    agent = seedAccount(gateway.accounts, '@alice', { type: 'agent' });
  });

  afterEach(async () => {
    await gateway.close();
  });

  it('refuses a PAYMENT-RESPONSE whose transaction is too long to be a signature with 400, not 500', async () => {
    const header = (transaction: string) =>
      Buffer.from(JSON.stringify({ success: true, transaction })).toString('base64');

    const res = await request(gateway.url)
      .post('/v1/agents/x402/payments/x402_1/settlement')
      .set(bearer(agent.keys.test.secret))
      .send({ payment_response: header('z'.repeat(200)) })
      .expect(400);

    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'payment_response' });
    expect(x402.calls(ReportX402Settlement)).toHaveLength(0);
  });
});
