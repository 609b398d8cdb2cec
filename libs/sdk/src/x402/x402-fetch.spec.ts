import { type ApiTestServer, startApiTestServer } from '../../testing/api-test-server';
import { CtsClient } from '../client/cts-client';
import { x402FetchWithPayment } from './x402-fetch';

const API_KEY = 'svc_test_0123456789abcdefghijklmnopqrstuvwxyzABCD';

let api: ApiTestServer;
let resource: ApiTestServer;
let elsewhere: ApiTestServer;
let client: CtsClient;

const paymentRequired = (url: string) => ({
  'PAYMENT-REQUIRED': Buffer.from(
    JSON.stringify({ x402Version: 2, resource: { url }, accepts: [] }),
  ).toString('base64'),
});
const payment = {
  payment_id: 'x402_1',
  status: 'signed',
  payment_signature: 'c2lnbmVk',
  resource: '',
};

beforeAll(async () => {
  [api, resource, elsewhere] = await Promise.all([
    startApiTestServer(),
    startApiTestServer(),
    startApiTestServer(),
  ]);
});
afterAll(() => Promise.all([api.close(), resource.close(), elsewhere.close()]));
beforeEach(() => {
  for (const server of [api, resource, elsewhere]) {
    server.reset();
  }
  client = new CtsClient({ baseUrl: api.baseUrl, apiKey: API_KEY, retryDelayMs: 1, timeoutMs: 2000 });
});

describe('x402Fetch', () => {
  it('pays the 402 of the URL asked for and sends the request again with the payment', async () => {
    resource.reply({ status: 402, headers: paymentRequired(`${resource.baseUrl}/weather`) }, { status: 200 });
    api.reply({ status: 200, body: payment });

    const { response, payment: paid } = await x402FetchWithPayment(client, `${resource.baseUrl}/weather`);

    expect(response.status).toBe(200);
    expect(paid).toMatchObject({ payment_id: 'x402_1' });
    expect(JSON.parse(api.requests[0]?.body ?? '{}')).toMatchObject({
      resource: `${resource.baseUrl}/weather`,
    });
    expect(resource.requests[1]?.headers['payment-signature']).toBe('c2lnbmVk');
  });

  it('tells a payment an earlier call with the same key made (the service replayed it) from a new one', async () => {
    const quote = { status: 402, headers: paymentRequired(`${resource.baseUrl}/weather`) };
    resource.reply(quote, { status: 402 }, quote, { status: 200 });
    api.reply({ status: 200, body: payment, headers: { 'Idempotent-Replayed': 'true' } });
    api.reply({ status: 200, body: payment });

    const again = await x402FetchWithPayment(
      client,
      `${resource.baseUrl}/weather`,
      {},
      { idempotencyKey: 'k1' },
    );
    const first = await x402FetchWithPayment(
      client,
      `${resource.baseUrl}/weather`,
      {},
      { idempotencyKey: 'k2' },
    );

    expect(again).toMatchObject({ payment: { payment_id: 'x402_1' }, replayed: true });
    expect(again.response.status).toBe(402);
    expect(first).toMatchObject({ replayed: false });
  });

  it('does not follow a redirect to a 402 elsewhere: the redirect comes back unpaid', async () => {
    resource.reply({ status: 302, headers: { Location: `${elsewhere.baseUrl}/pay` } });
    elsewhere.reply({ status: 402, headers: paymentRequired(`${elsewhere.baseUrl}/pay`) });

    const { response, payment: paid } = await x402FetchWithPayment(client, `${resource.baseUrl}/weather`);

    expect(response.status).toBe(302);
    expect(paid).toBeNull();
    expect(elsewhere.requests).toHaveLength(0);
    expect(api.requests).toHaveLength(0);
  });

  it('does not carry the signed payment along a redirect of the paid request', async () => {
    resource.reply(
      { status: 402, headers: paymentRequired(`${resource.baseUrl}/weather`) },
      { status: 307, headers: { Location: `${elsewhere.baseUrl}/collect` } },
    );
    api.reply({ status: 200, body: payment });

    const { response } = await x402FetchWithPayment(client, `${resource.baseUrl}/weather`);

    expect(response.status).toBe(307);
    expect(elsewhere.requests).toHaveLength(0);
  });
});
