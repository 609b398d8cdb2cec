import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CtsClient } from '@cts/sdk';
import { FakeApi } from '../../testing/fake-api';
import { ACCOUNT } from '../../testing/fixtures';
import { createAgentMcpServer } from '../agent-mcp-server';

const POLICY = {
  policy_id: 'pol_1',
  daily_limit_usdc: 100,
  per_transaction_limit_usdc: 5,
  allowed_recipients: ['127.0.0.1'],
  assets: ['SOL'],
  active_hours: null,
  timezone: 'UTC',
  hitl_threshold_usdc: null,
  approval_window_minutes: 60,
  updated_at: '2030-01-01T00:00:00.000Z',
};
const PAYMENT = {
  payment_id: 'x402_1',
  status: 'signed',
  resource: '',
  scheme: 'exact',
  network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  pay_to: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
  asset: 'SOL',
  amount: '0.01',
  amount_base_units: '10000000',
  header_name: 'PAYMENT-SIGNATURE',
  payment_signature: 'c2lnbmVk',
  amount_public: true,
  notice: 'public',
  chain_signature: null,
  created_at: '2030-01-01T00:00:00.000Z',
  settled_at: null,
};

describe('pay_for_resource', () => {
  let api: FakeApi;
  let resource: FakeApi;
  let client: Client;

  beforeEach(async () => {
    [api, resource] = await Promise.all([FakeApi.start(), FakeApi.start()]);
    api
      .respond('GET', '/v1/accounts/me', 200, { ...ACCOUNT, type: 'agent' })
      .respond('GET', '/v1/accounts/me/spend-policy', 200, POLICY);
    // A 402 answer in the body (no PAYMENT-REQUIRED header), every time: even once paid.
    resource.respond('GET', '/weather', 402, {
      x402Version: 2,
      resource: { url: `${resource.url}/weather` },
      accepts: [],
    });
    const server = createAgentMcpServer(
      new CtsClient({ baseUrl: api.url, apiKey: 'svc_test_agent', retryDelayMs: 1, timeoutMs: 2000 }),
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'tool-spec', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  });

  afterEach(async () => {
    await client.close();
    await Promise.all([api.close(), resource.close()]);
  });

  const call = async (args: Record<string, unknown>) => {
    const result = (await client.callTool({ name: 'pay_for_resource', arguments: args })) as CallToolResult;
    const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    return { result, text, data: (result.structuredContent ?? {}) as Record<string, unknown> };
  };

  it('does not say paid when the resource still answers 402 after the payment', async () => {
    api.respond('POST', '/v1/agents/x402/payments', 200, PAYMENT);

    const { result, data } = await call({ url: `${resource.url}/weather`, idempotency_key: 'k1' });

    expect(result.isError).toBe(true);
    expect(data).toMatchObject({
      status: 'error',
      reason: 'payment_not_accepted',
      http_status: 402,
      payment_id: 'x402_1',
    });
    expect(String(data.message)).not.toMatch(/^Paid/);
    expect(String(data.message)).toContain('same idempotency_key');
  });

  it('says a retry with the same key was already paid by the earlier call, not that the payment was not taken', async () => {
    // The gateway replays the first answer (signed, not yet settled); the resource has used that payment.
    api.respond('POST', '/v1/agents/x402/payments', 200, PAYMENT, { 'Idempotent-Replayed': 'true' });

    const { result, data } = await call({ url: `${resource.url}/weather`, idempotency_key: 'k1' });

    expect(result.isError).toBe(true);
    expect(data).toMatchObject({
      status: 'error',
      reason: 'payment_already_made',
      http_status: 402,
      payment_id: 'x402_1',
      idempotency_key: 'k1',
    });
    expect(String(data.message)).toMatch(/already made .*x402_1/);
    expect(String(data.message)).toMatch(/nothing new was paid/i);
    expect(String(data.message)).not.toMatch(/did not take the payment/);
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('words a policy refusal in the asset the quote asks for, not USDC', async () => {
    api.respond('POST', '/v1/agents/x402/payments', 403, {
      error: {
        code: 'policy_violation',
        message: 'The amount exceeds the per-transaction limit',
        reason: 'per_transaction_limit_exceeded',
        request_id: 'req_1',
      },
    });

    const { data } = await call({ url: `${resource.url}/weather` });

    expect(data).toMatchObject({ status: 'refused', reason: 'per_transaction_limit_exceeded' });
    expect(String(data.message)).toContain('limit of 5 SOL');
    expect(String(data.message)).not.toContain('USDC');
  });

  it('refuses a URL that is not http(s) as bad input, not as an unexpected failure', async () => {
    const { result, text } = await call({ url: 'ftp://example.com/file' });

    expect(result.isError).toBe(true);
    expect(text).toMatch(/http:\/\/ or https:\/\//);
    expect(text).not.toMatch(/Unexpected failure/);
    expect(resource.requests).toHaveLength(0);
  });

  const withRecipients = (allowed_recipients: string[]) =>
    api.respond('GET', '/v1/accounts/me/spend-policy', 200, { ...POLICY, allowed_recipients });

  it('sends nothing to a host outside allowed_recipients, and says so as a policy refusal', async () => {
    withRecipients(['*.example.com', '@bob']);
    resource.respond('GET', '/metrics', 200, 'gateway_requests_total 42');

    const { result, data } = await call({ url: `${resource.url}/metrics` });

    expect(result.isError).toBe(true);
    expect(data).toMatchObject({ status: 'refused', reason: 'recipient_not_allowed' });
    expect(String(data.message)).toContain('"*.example.com", "@bob"');
    expect(JSON.stringify(data)).not.toContain('gateway_requests_total');
    expect(resource.requests).toHaveLength(0);
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('does not let "*" reach a loopback host with any method: the owner must name it', async () => {
    withRecipients(['*']);

    const { result, data } = await call({ url: `${resource.url}/admin/keys`, method: 'DELETE' });

    expect(result.isError).toBe(true);
    expect(data).toMatchObject({ status: 'refused', reason: 'recipient_not_allowed' });
    expect(String(data.message)).toMatch(/loopback/);
    expect(resource.requests).toHaveLength(0);
  });

  it('takes plain http only from a loopback host', async () => {
    withRecipients(['*.example.com']);

    const { result, data } = await call({ url: 'http://api.example.com/weather' });

    expect(result.isError).toBe(true);
    expect(data).toMatchObject({ status: 'error', reason: 'https_required' });
    expect(String(data.message)).toContain('https://api.example.com/weather');
  });

  it('sends nothing when the policy cannot be read', async () => {
    api.respond('GET', '/v1/accounts/me/spend-policy', 401, {
      error: { code: 'unauthorized', message: 'Invalid API key', request_id: 'req_1' },
    });

    const { result, data } = await call({ url: `${resource.url}/weather` });

    expect(result.isError).toBe(true);
    expect(data).toMatchObject({ status: 'error', reason: 'unauthorized' });
    expect(resource.requests).toHaveLength(0);
  });

  it('says a resource it cannot reach is unreachable, with the cause, not an unexpected failure', async () => {
    const closed = await FakeApi.start();
    await closed.close();

    const { result, data } = await call({ url: `${closed.url}/weather` });

    expect(result.isError).toBe(true);
    expect(data).toMatchObject({ status: 'error', reason: 'resource_unreachable' });
    expect(String(data.message)).toContain('ECONNREFUSED');
    expect(String(data.message)).not.toMatch(/Unexpected failure/);
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('pays nothing with the key of an account that is not an agent', async () => {
    api.respond('GET', '/v1/accounts/me', 200, { ...ACCOUNT, type: 'personal' });

    const { result, data } = await call({ url: `${resource.url}/weather` });

    expect(result.isError).toBe(true);
    expect(data).toMatchObject({ status: 'error', reason: 'not_an_agent' });
    expect(resource.requests).toHaveLength(0);
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);
  });
});
