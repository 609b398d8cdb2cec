import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http } from './support/http';
import { type OneProcessMode, startOneProcessMode } from './support/one-process-mode';
import { account, fund, provenBalance } from './support/transfers.behaviour';

const CTS = join(__dirname, '../apps/cli/bin/cts.js');
const TOOLS = [
  'get_balances',
  'get_payment_status',
  'get_policy',
  'list_payments',
  'pay',
  'pay_for_resource',
];
const POLICY = { daily_limit_usdc: 1000, per_transaction_limit_usdc: 25, hitl_threshold_usdc: 10 };

type Structured = Record<string, unknown>;

/** Issue 19: the MCP server driven by the MCP SDK's own client over stdio, against `npm start`. */
describe('cts mcp: an agent wallet over the Model Context Protocol (stdio, one-process mode)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cts-mcp-'));
  let running: OneProcessMode;
  let stack: { baseUrl: string; adminToken: string };
  const clients: Client[] = [];

  async function connect(apiKey: string): Promise<{ client: Client; stderr: string[] }> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CTS, 'mcp', '--api-key', apiKey, '--url', stack.baseUrl],
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    const stderr: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return { client, stderr };
  }

  async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return {
      result,
      data: (result.structuredContent ?? {}) as Structured,
      text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join(''),
    };
  }

  async function agentWallet(policy: Record<string, unknown> = POLICY) {
    const owner = await account(stack);
    const merchant = await account(stack);
    const created = await http(stack.baseUrl, 'POST', '/v1/accounts/me/agents', {
      token: owner.token,
      body: { name: 'shopper', spend_policy: { allowed_recipients: [merchant.account.handle], ...policy } },
    });
    expect(created.status).toBe(201);
    const agent = created.body as { account_id: string; handle: string; decryption_key: string };
    const key = await http(stack.baseUrl, 'POST', `/v1/agents/${agent.account_id}/api-keys`, {
      token: owner.token,
      body: { name: 'mcp' },
    });
    const agentToken = (key.body as { secret: string }).secret;
    await fund(stack, { ...owner, token: agentToken, decryption_key: agent.decryption_key }, '123.45');
    const { client, stderr } = await connect(agentToken);
    return { owner, merchant, agent, agentToken, client, stderr };
  }

  beforeAll(async () => {
    running = await startOneProcessMode(dataDir);
    stack = {
      baseUrl: running.baseUrl,
      adminToken: readFileSync(join(dataDir, 'admin-token'), 'utf8').trim(),
    };
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await running?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('lists its five tools, each with a model-oriented description and valid input and output JSON schemas', async () => {
    const { client } = await agentWallet();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    const validator = new AjvJsonSchemaValidator();
    for (const tool of tools) {
      expect(tool.description?.length ?? 0).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      // Compiling throws on an invalid schema.
      validator.getValidator(tool.inputSchema);
      validator.getValidator(tool.outputSchema ?? {});
    }
    const pay = tools.find((t) => t.name === 'pay');
    expect(pay?.inputSchema.required?.sort()).toEqual(['amount', 'asset', 'to']);
    expect(pay?.description).toMatch(/same (idempotency_)?key/i);
    const validPay = validator.getValidator(pay?.inputSchema ?? {});
    expect(validPay({ to: '@shop', amount: '12.50', asset: 'USDC', idempotency_key: 'order-1' }).valid).toBe(
      true,
    );
    expect(validPay({ to: '@shop', amount: '-1', asset: 'USDC' }).valid).toBe(false);
    expect(validPay({ to: '@shop', amount: '12.50' }).valid).toBe(false);
    expect(tools.find((t) => t.name === 'get_balances')?.description).toMatch(/cannot decrypt/i);
  }, 90_000);

  it('reads the policy in force, as numbers and in words', async () => {
    const { client, merchant } = await agentWallet();
    const { result, data } = await call(client, 'get_policy');
    expect(result.isError).toBeFalsy();
    expect(data).toMatchObject({
      per_transaction_limit_usdc: 25,
      daily_limit_usdc: 1000,
      hitl_threshold_usdc: 10,
      allowed_recipients: [merchant.account.handle],
      assets: ['USDC'],
    });
    expect(data.summary).toContain('25');
  }, 90_000);

  it('pays under the threshold (confirmed), and a retry with the same idempotency key moves the money once', async () => {
    const { client, merchant } = await agentWallet();
    const args = { to: merchant.account.handle, amount: '4.5', asset: 'USDC', idempotency_key: 'order-42' };
    const first = await call(client, 'pay', args);
    expect(first.result.isError).toBeFalsy();
    expect(first.data).toMatchObject({
      status: 'confirmed',
      transfer_id: expect.stringMatching(/^tr_/),
      idempotency_key: 'order-42',
    });
    // The same intent again, the amount now as a JSON number: the first payment comes back, nothing moves twice.
    const retry = await call(client, 'pay', { ...args, amount: 4.5 });
    expect(retry.data).toMatchObject({ status: 'confirmed', transfer_id: first.data.transfer_id });
    expect(await provenBalance(stack, merchant)).toBe('4.5');

    const status = await call(client, 'get_payment_status', { payment_id: first.data.transfer_id });
    expect(status.data).toMatchObject({
      kind: 'transfer',
      status: 'confirmed',
      transfer_id: first.data.transfer_id,
    });
    const listed = await call(client, 'list_payments', { limit: 5 });
    expect((listed.data.payments as Structured[]).map((p) => p.transfer_id)).toContain(
      first.data.transfer_id,
    );
  }, 120_000);

  it('holds a payment above the threshold until the owner approves over REST, then reports it approved with its transfer', async () => {
    const { client, owner, merchant } = await agentWallet();
    const held = await call(client, 'pay', {
      to: merchant.account.handle,
      amount: '15',
      asset: 'USDC',
      idempotency_key: 'big-1',
    });
    expect(held.result.isError).toBeFalsy();
    expect(held.data).toMatchObject({
      status: 'pending_approval',
      transaction_id: expect.stringMatching(/^atx_/),
      expires_at: expect.any(String),
    });
    const id = held.data.transaction_id as string;
    const waiting = await call(client, 'get_payment_status', { payment_id: id });
    expect(waiting.data).toMatchObject({
      kind: 'held_transaction',
      status: 'pending_approval',
      transfer_id: null,
    });
    const listed = await call(client, 'list_payments');
    expect((listed.data.awaiting_approval as Structured[]).map((h) => h.transaction_id)).toEqual([id]);

    const approved = await http(stack.baseUrl, 'POST', `/v1/agents/transactions/${id}/approve`, {
      token: owner.token,
    });
    expect(approved.status).toBe(200);
    const after = await call(client, 'get_payment_status', { payment_id: id });
    expect(after.data).toMatchObject({
      kind: 'held_transaction',
      status: 'approved',
      transfer_id: expect.stringMatching(/^tr_/),
      transfer_status: 'confirmed',
    });
    expect(await provenBalance(stack, merchant)).toBe('15');
  }, 120_000);

  it('answers a payment outside the policy with a readable refusal and its reason; nothing moves', async () => {
    const { client, merchant } = await agentWallet();
    const tooBig = await call(client, 'pay', { to: merchant.account.handle, amount: '30', asset: 'USDC' });
    expect(tooBig.result.isError).toBe(true);
    expect(tooBig.data).toMatchObject({ status: 'refused', reason: 'per_transaction_limit_exceeded' });
    expect(tooBig.data.message).toContain('above the per-transaction limit of 25 USDC');
    const stranger = await account(stack);
    const elsewhere = await call(client, 'pay', { to: stranger.account.handle, amount: '1', asset: 'USDC' });
    expect(elsewhere.data).toMatchObject({ status: 'refused', reason: 'recipient_not_allowed' });
    expect(elsewhere.data.message).toContain(stranger.account.handle);
    expect(elsewhere.data.message).toContain(merchant.account.handle);
    for (const refusal of [tooBig, elsewhere]) {
      expect(refusal.text).not.toMatch(/\n\s+at /); // no stack trace
    }
    const sol = await call(client, 'pay', { to: merchant.account.handle, amount: '1', asset: 'SOL' });
    expect(sol.data).toMatchObject({ status: 'refused', reason: 'asset_not_allowed' });
    expect(sol.data.message).toContain('allowed assets: USDC');
    const balances = await http(stack.baseUrl, 'GET', '/v1/accounts/me/balances', { token: merchant.token });
    expect(balances.body).toMatchObject({
      balances: expect.arrayContaining([{ asset: 'USDC', has_balance: false }]),
    });
  }, 120_000);

  it('tells which assets hold funds, never an amount', async () => {
    const { client } = await agentWallet();
    const { result, data, text } = await call(client, 'get_balances');
    expect(result.isError).toBeFalsy();
    expect(data.balances).toEqual(expect.arrayContaining([{ asset: 'USDC', has_balance: true }]));
    expect(JSON.stringify(data)).not.toMatch(/amount|ciphertext|123\.45/);
    expect(text).not.toContain('123.45');
    expect(data.note).toMatch(/cannot decrypt/);
  }, 90_000);

  it('serves Streamable HTTP too, each request as the agent whose key it carries', async () => {
    const { agentToken, merchant } = await agentWallet();
    const child = spawn(process.execPath, [CTS, 'mcp', '--http', '0', '--url', stack.baseUrl], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      let printed = '';
      child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
      const deadline = Date.now() + 20_000;
      while (!/http:\/\/127\.0\.0\.1:\d+\/mcp/.test(printed) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(printed)?.[0] ?? '';
      expect(url).not.toBe('');
      const anonymous = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(anonymous.status).toBe(401);

      const client = new Client({ name: 'e2e-http', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${agentToken}` } },
        }),
      );
      clients.push(client);
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
      const policy = await call(client, 'get_policy');
      expect(policy.data).toMatchObject({
        per_transaction_limit_usdc: 25,
        allowed_recipients: [merchant.account.handle],
      });
      const paid = await call(client, 'pay', {
        to: merchant.account.handle,
        amount: '2',
        asset: 'USDC',
        idempotency_key: 'http-1',
      });
      expect(paid.data).toMatchObject({ status: 'confirmed', transfer_id: expect.stringMatching(/^tr_/) });
    } finally {
      child.kill('SIGTERM');
    }
  }, 90_000);

  it('answers a bad key with a tool error and keeps serving', async () => {
    const { client, stderr } = await connect(`svc_test_${'A'.repeat(43)}`);
    for (const tool of ['get_policy', 'get_balances', 'list_payments']) {
      const { result, text } = await call(client, tool);
      expect(result.isError).toBe(true);
      expect(text).toMatch(/API key .*refused/);
    }
    const pay = await call(client, 'pay', { to: '@nobody', amount: '1', asset: 'USDC' });
    expect(pay.data).toMatchObject({ status: 'error', reason: 'unauthorized' });
    expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
    expect(stderr.join('')).not.toContain('A'.repeat(43));
  }, 90_000);
});
