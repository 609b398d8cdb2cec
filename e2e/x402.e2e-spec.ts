import { CtsApiError, CtsClient, payX402, x402FetchWithPayment, X402PendingApprovalError } from '@cts/sdk';
import { type LocalLedgerServer, startLocalLedgerServer } from '@cts/ledger';
import { eventually } from '@cts/testing';
import { findAssociatedTokenPda, fetchToken, TOKEN_2022_PROGRAM_ADDRESS } from '@solana-program/token-2022';
import { address, createSolanaRpc, getBase58Decoder } from '@solana/kit';
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http } from './support/http';
import { type OneProcessMode, startOneProcessMode } from './support/one-process-mode';
import { account, fund } from './support/transfers.behaviour';
import { startX402Merchant, type X402Merchant } from './support/x402-merchant';

const CTS = join(__dirname, '../apps/cli/bin/cts.js');
const CENT = '10000'; // 0.01 USDC in base units
const DIME = '100000'; // 0.10 USDC, above the threshold below

/**
 * Issue 20 end to end, offline, real parts: a resource server on the official @x402/express
 * middleware and the official @x402/svm exact facilitator settle on the local ledger that the
 * one-process mode (`npm start`) uses; agents pay through the SDK's x402Fetch.
 */
describe('x402: agents pay for APIs inside their spend policy', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cts-x402-'));
  const ledgerDir = join(dataDir, 'ledger');
  let ledgers: LocalLedgerServer[] = [];
  let running: OneProcessMode;
  let merchant: X402Merchant;
  let stack: { baseUrl: string; adminToken: string };
  let payTo: string;
  let usdcMint: string;

  const rpc = () => createSolanaRpc(ledgers[0]?.url ?? '');

  async function publicBalance(owner: string): Promise<bigint> {
    const [ata] = await findAssociatedTokenPda({
      mint: address(usdcMint),
      owner: address(owner),
      tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
    });
    return (await fetchToken(rpc(), ata)).data.amount;
  }

  async function agent(policy: Record<string, unknown>) {
    const owner = await account(stack);
    const created = await http(stack.baseUrl, 'POST', '/v1/accounts/me/agents', {
      token: owner.token,
      body: { name: 'buyer', spend_policy: policy },
    });
    expect(created.status).toBe(201);
    const made = created.body as { account_id: string; decryption_key: string; public_key: string };
    const key = await http(stack.baseUrl, 'POST', `/v1/agents/${made.account_id}/api-keys`, {
      token: owner.token,
      body: { name: 'x402' },
    });
    const token = (key.body as { secret: string }).secret;
    await fund(stack, { ...owner, token, decryption_key: made.decryption_key }, '5');
    return {
      owner,
      agentId: made.account_id,
      token,
      client: new CtsClient({ baseUrl: stack.baseUrl, apiKey: token }),
    };
  }

  const policy = (overrides: Record<string, unknown> = {}) => ({
    daily_limit_usdc: 1,
    per_transaction_limit_usdc: 1,
    hitl_threshold_usdc: 0.05,
    allowed_recipients: ['127.0.0.1'],
    ...overrides,
  });

  beforeAll(async () => {
    ledgers = await Promise.all(
      (['test', 'live'] as const).map((environment) =>
        startLocalLedgerServer({ port: 0, stateDir: ledgerDir, environment }),
      ),
    );
    running = await startOneProcessMode(dataDir, {
      LEDGER_STATE_DIR: ledgerDir,
      LEDGER_RPC_URL_TEST: ledgers[0]?.url ?? '',
      LEDGER_RPC_URL_LIVE: ledgers[1]?.url ?? '',
    });
    stack = {
      baseUrl: running.baseUrl,
      adminToken: readFileSync(join(dataDir, 'admin-token'), 'utf8').trim(),
    };
    // The payee: an account of the service, so its Token-2022 account exists (funding opens it).
    const seller = await account(stack);
    await fund(stack, seller, '1');
    const me = await http(stack.baseUrl, 'GET', '/v1/accounts/me', { token: seller.token });
    payTo = (me.body as { public_key: string }).public_key;
    usdcMint = ledgers[0]?.runtime.genesis.assets.find((asset) => asset.code === 'USDC')?.mint ?? '';
    merchant = await startX402Merchant({
      rpcUrl: ledgers[0]?.url ?? '',
      asset: usdcMint,
      payTo,
      routes: [
        { path: '/weather', amount: CENT },
        { path: '/report', amount: DIME },
      ],
    });
  }, 180_000);

  const clients: Client[] = [];

  /** The MCP server (`cts mcp`, stdio) of one agent, driven by the MCP SDK's own client. */
  async function mcp(apiKey: string) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CTS, 'mcp', '--api-key', apiKey, '--url', stack.baseUrl],
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'e2e-x402', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return async (args: Record<string, unknown>) => {
      const result = (await client.callTool({ name: 'pay_for_resource', arguments: args })) as CallToolResult;
      return { result, data: (result.structuredContent ?? {}) as Record<string, unknown> };
    };
  }

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await merchant?.close();
    await running?.stop();
    await Promise.all(ledgers.map((ledger) => ledger.close()));
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('pays 0.01 USDC: the resource answers 200, the facilitator settles, payTo gains exactly that, agent.x402.paid', async () => {
    const buyer = await agent(policy());
    const before = await publicBalance(payTo);

    const { response, payment } = await x402FetchWithPayment(buyer.client, `${merchant.url}/weather`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, path: '/weather' });
    expect(merchant.settlements.at(-1)).toMatchObject({ success: true });
    expect(await publicBalance(payTo)).toBe(before + BigInt(CENT));
    expect(payment).toMatchObject({
      status: 'settled',
      amount: '0.01',
      amount_base_units: CENT,
      asset: 'USDC',
      pay_to: payTo,
      resource: `${merchant.url}/weather`,
      amount_public: true,
      chain_signature: merchant.settlements.at(-1)?.transaction,
    });
    const events = async () =>
      (
        (await http(stack.baseUrl, 'GET', '/v1/events?type=agent.x402.paid', { token: buyer.owner.token }))
          .body as { events: Record<string, unknown>[] }
      ).events;
    await eventually(async () => expect(await events()).toHaveLength(1), 30_000, 250);
    expect((await events())[0]).toMatchObject({
      event: 'agent.x402.paid',
      pay_to: payTo,
      asset: 'USDC',
      amount: '0.01',
      resource: `${merchant.url}/weather`,
      chain_signature: payment?.chain_signature,
    });
  }, 120_000);

  it('counts x402 payments in the daily limit, as transfers: past it, policy_violation daily_limit_exceeded', async () => {
    const buyer = await agent(policy({ daily_limit_usdc: 0.025, per_transaction_limit_usdc: 0.02 }));
    for (let n = 0; n < 2; n++) {
      expect((await x402FetchWithPayment(buyer.client, `${merchant.url}/weather`)).response.status).toBe(200);
    }
    const before = await publicBalance(payTo);
    const third = await x402FetchWithPayment(buyer.client, `${merchant.url}/weather`).catch(
      (e: unknown) => e,
    );
    expect(third).toBeInstanceOf(CtsApiError);
    expect(third).toMatchObject({ status: 403, code: 'policy_violation', reason: 'daily_limit_exceeded' });
    expect(await publicBalance(payTo)).toBe(before);
  }, 120_000);

  it('holds a payment above the threshold for the owner; it pays once approved', async () => {
    const buyer = await agent(policy());
    const held = await x402FetchWithPayment(buyer.client, `${merchant.url}/report`).catch((e: unknown) => e);
    expect(held).toBeInstanceOf(X402PendingApprovalError);
    const transaction = (held as X402PendingApprovalError).transaction;
    // The owner sees who is paid and for which resource, not only the host the policy matched; so
    // does the agent's own 202.
    const x402 = { pay_to: payTo, resource: `${merchant.url}/report` };
    expect(transaction).toMatchObject({ status: 'pending_approval', to: '127.0.0.1', asset: 'USDC', x402 });
    const pending = await http(stack.baseUrl, 'GET', '/v1/agents/transactions/pending', {
      token: buyer.owner.token,
    });
    const held402 = { transaction_id: transaction.transaction_id, to: '127.0.0.1', x402 };
    expect(pending).toMatchObject({ status: 200, body: { pending: [expect.objectContaining(held402)] } });
    const [item] = (pending.body as { pending: Record<string, unknown>[] }).pending;
    expect(Object.keys(item).filter((key) => key.includes('amount'))).toEqual(['encrypted_amount']);
    const read = await http(stack.baseUrl, 'GET', `/v1/agents/transactions/${transaction.transaction_id}`, {
      token: buyer.owner.token,
    });
    expect(read).toMatchObject({ status: 200, body: { status: 'pending_approval', x402 } });

    const before = await publicBalance(payTo);
    const approved = await http(
      stack.baseUrl,
      'POST',
      `/v1/agents/transactions/${transaction.transaction_id}/approve`,
      { token: buyer.owner.token },
    );
    expect(approved).toMatchObject({ status: 200, body: { status: 'approved' } });
    const { response, payment } = await x402FetchWithPayment(
      buyer.client,
      `${merchant.url}/report`,
      undefined,
      {
        approvedTransactionId: transaction.transaction_id,
      },
    );
    expect(response.status).toBe(200);
    expect(payment).toMatchObject({ status: 'settled', amount: '0.1' });
    expect(await publicBalance(payTo)).toBe(before + BigInt(DIME));
  }, 120_000);

  it('refuses a resource whose host is outside allowed_recipients, with its reason; a raw payee address allows it', async () => {
    const outsider = await agent(policy({ allowed_recipients: ['*.example.com'] }));
    const refused = await x402FetchWithPayment(outsider.client, `${merchant.url}/weather`).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ status: 403, code: 'policy_violation', reason: 'recipient_not_allowed' });

    const byAddress = await agent(policy({ allowed_recipients: [payTo] }));
    expect((await x402FetchWithPayment(byAddress.client, `${merchant.url}/weather`)).response.status).toBe(
      200,
    );
  }, 120_000);

  it('a retried call with its idempotency key signs once and pays once; only the facilitator’s real settlement of it is accepted', async () => {
    const buyer = await agent(policy());
    const quote = await fetch(`${merchant.url}/weather`);
    expect(quote.status).toBe(402);
    const body = {
      payment_required: quote.headers.get('PAYMENT-REQUIRED'),
      resource: `${merchant.url}/weather`,
      received_at: new Date().toISOString(),
    };
    const pay = () =>
      http(stack.baseUrl, 'POST', '/v1/agents/x402/payments', {
        token: buyer.token,
        body,
        headers: { 'Idempotency-Key': 'x402-once' },
      });
    const [first, second] = [await pay(), await pay()];
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const signature = (first.body as { payment_signature: string }).payment_signature;

    const before = await publicBalance(payTo);
    const paid = await fetch(`${merchant.url}/weather`, { headers: { 'PAYMENT-SIGNATURE': signature } });
    expect(paid.status).toBe(200);
    const replayed = await fetch(`${merchant.url}/weather`, { headers: { 'PAYMENT-SIGNATURE': signature } });
    expect(replayed.status).not.toBe(200);
    expect(await publicBalance(payTo)).toBe(before + BigInt(CENT));

    // The settlement is believed only when it is the facilitator's signature of this very payment.
    const paymentId = (first.body as { payment_id: string }).payment_id;
    const report = (chain_signature: string) =>
      http(stack.baseUrl, 'POST', `/v1/agents/x402/payments/${paymentId}/settlement`, {
        token: buyer.token,
        body: { chain_signature },
      });
    const settledTx = (
      JSON.parse(Buffer.from(paid.headers.get('PAYMENT-RESPONSE') ?? '', 'base64').toString('utf8')) as {
        transaction: string;
      }
    ).transaction;
    const anotherPayment = merchant.settlements.find((s) => s.success && s.transaction !== settledTx);
    for (const forged of [getBase58Decoder().decode(randomBytes(64)), anotherPayment?.transaction ?? '']) {
      expect(await report(forged)).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_request', param: 'chain_signature' } },
      });
    }
    // Another agent's key cannot report it, even with the genuine settlement: as for an unknown id.
    const stranger = await agent(policy());
    const byStranger = await http(stack.baseUrl, 'POST', `/v1/agents/x402/payments/${paymentId}/settlement`, {
      token: stranger.token,
      body: { chain_signature: settledTx },
    });
    expect(byStranger).toMatchObject({ status: 404, body: { error: { code: 'x402_payment_not_found' } } });
    const genuine = await report(settledTx);
    expect(genuine).toMatchObject({ status: 200, body: { status: 'settled', chain_signature: settledTx } });
  }, 120_000);

  it('x402Fetch retried with its idempotency key returns the first payment (a later receipt time), and the merchant is paid once', async () => {
    const buyer = await agent(policy());
    const before = await publicBalance(payTo);
    const once = { idempotencyKey: 'fetch-once' };

    const first = await x402FetchWithPayment(buyer.client, `${merchant.url}/weather`, undefined, once);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const retried = await x402FetchWithPayment(buyer.client, `${merchant.url}/weather`, undefined, once);

    expect(first.response.status).toBe(200);
    expect(retried.payment?.payment_id).toBe(first.payment?.payment_id);
    expect(retried.response.status).not.toBe(200); // the same signed transaction, already settled
    expect(await publicBalance(payTo)).toBe(before + BigInt(CENT));
  }, 120_000);

  it('pays only the URL the 402 answer charges for: another query is 400, nothing signed', async () => {
    const buyer = await agent(policy());
    const quote = await fetch(`${merchant.url}/weather`);
    const other = await payX402(buyer.client, {
      payment_required: quote.headers.get('PAYMENT-REQUIRED') ?? '',
      resource: `${merchant.url}/weather?x=1`,
    }).catch((e: unknown) => e);
    expect(other).toMatchObject({ status: 400, code: 'invalid_request', param: 'resource' });
  }, 120_000);

  it('refuses a quote whose validity has passed: 409 quote_expired, nothing signed', async () => {
    const buyer = await agent(policy());
    const quote = await fetch(`${merchant.url}/weather`);
    const expired = await payX402(buyer.client, {
      payment_required: quote.headers.get('PAYMENT-REQUIRED') ?? '',
      resource: `${merchant.url}/weather`,
      received_at: new Date(Date.now() - 61_000).toISOString(),
    }).catch((e: unknown) => e);
    expect(expired).toMatchObject({ status: 409, code: 'quote_expired' });
  }, 120_000);

  it('MCP pay_for_resource: pays within the policy and returns the resource; a host outside it is refused in words', async () => {
    const buyer = await agent(policy());
    const pay = await mcp(buyer.token);
    const before = await publicBalance(payTo);
    const paid = await pay({ url: `${merchant.url}/weather`, idempotency_key: 'mcp-weather-1' });
    expect(paid.result.isError).toBeFalsy();
    expect(paid.data).toMatchObject({
      status: 'ok',
      http_status: 200,
      amount: '0.01',
      asset: 'USDC',
      pay_to: payTo,
      payment_id: expect.stringMatching(/^x402_/),
    });
    expect(JSON.parse(String(paid.data.response_body))).toEqual({ ok: true, path: '/weather' });
    expect(await publicBalance(payTo)).toBe(before + BigInt(CENT));

    // The same key again: the gateway replays the first payment, the resource refuses it as used.
    const retried = await pay({ url: `${merchant.url}/weather`, idempotency_key: 'mcp-weather-1' });
    expect(retried.result.isError).toBe(true);
    expect(retried.data).toMatchObject({
      status: 'error',
      reason: 'payment_already_made',
      payment_id: paid.data.payment_id,
    });
    expect(await publicBalance(payTo)).toBe(before + BigInt(CENT));

    const held = await pay({ url: `${merchant.url}/report` });
    expect(held.data).toMatchObject({
      status: 'pending_approval',
      transaction_id: expect.stringMatching(/^atx_/),
    });

    const outsider = await agent(policy({ allowed_recipients: ['*.example.com'] }));
    const refused = await (await mcp(outsider.token))({ url: `${merchant.url}/weather` });
    expect(refused.result.isError).toBe(true);
    expect(refused.data).toMatchObject({ status: 'refused', reason: 'recipient_not_allowed' });
    expect(String(refused.data.message)).toContain('*.example.com');
  }, 120_000);
});
