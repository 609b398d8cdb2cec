import { createDecryptionProof } from '@cts/sdk';
import { generateTestCertificates, HttpsReceiver } from '@cts/testing';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type ConsoleMessage, type Page } from 'playwright-core';
import { http, uniqueHandle } from './http';
import { startOneProcessMode } from './one-process-mode';

const repoRoot = join(__dirname, '../..');
/**
 * docs/images is refreshed only on request (`CTS_UPDATE_SCREENSHOTS=1`), so a test run leaves the
 * work tree clean; otherwise the screenshots are still taken (a page that cannot render fails) into a
 * temporary directory.
 */
export const SCREENSHOTS =
  process.env.CTS_UPDATE_SCREENSHOTS === '1'
    ? join(repoRoot, 'docs/images')
    : mkdtempSync(join(tmpdir(), 'cts-screenshots-'));

/** Debian's package (`apt-get install -y chromium`); Playwright's own download is not available. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface DashboardStack {
  baseUrl: string;
  adminToken: string;
  receiver: HttpsReceiver;
  browser: Browser;
  stop(): Promise<void>;
}

/**
 * The one-process mode with its own data dir and port, an HTTPS webhook receiver whose test CA the
 * server trusts (NODE_EXTRA_CA_CERTS), the dashboard built, and Chromium. `env` adds settings.
 */
export async function startDashboardStack(env: Record<string, string> = {}): Promise<DashboardStack> {
  execFileSync(process.execPath, [join(repoRoot, 'apps/dashboard-ui/build.mjs')], { stdio: 'pipe' });
  const dataDir = mkdtempSync(join(tmpdir(), 'cts-dashboard-'));
  const certificates = generateTestCertificates();
  const caFile = join(dataDir, 'webhook-ca.pem');
  writeFileSync(caFile, certificates.ca);
  const receiver = await new HttpsReceiver(certificates).start();
  const [running, browser] = await Promise.all([
    startOneProcessMode(dataDir, {
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      NODE_EXTRA_CA_CERTS: caFile,
      ...env,
    }),
    // Root (CI containers) cannot use Chromium's sandbox.
    chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] }),
  ]);
  return {
    baseUrl: running.baseUrl,
    adminToken: readFileSync(join(dataDir, 'admin-token'), 'utf8').trim(),
    receiver,
    browser,
    async stop() {
      await browser.close();
      await running.stop();
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Holder {
  accountId: string;
  handle: string;
  token: string;
  decryptionKey: string;
}

export async function createHolder(stack: DashboardStack, base = 'dash'): Promise<Holder> {
  const response = await http(stack.baseUrl, 'POST', '/admin/v1/accounts', {
    token: stack.adminToken,
    body: { handle: uniqueHandle(base), type: 'personal', kyc_status: 'verified' },
  });
  expect(response.status).toBe(201);
  const body = response.body as {
    account: { account_id: string; handle: string };
    decryption_key: string;
    api_keys: { test: { secret: string } };
  };
  return {
    accountId: body.account.account_id,
    handle: body.account.handle,
    token: body.api_keys.test.secret,
    decryptionKey: body.decryption_key,
  };
}

export async function fund(stack: DashboardStack, token: string, amount: string): Promise<void> {
  const response = await http(stack.baseUrl, 'POST', '/v1/sandbox/fund', {
    token,
    body: { asset: 'USDC', amount },
  });
  expect(response).toMatchObject({ status: 200, body: { status: 'confirmed' } });
}

/** An owner with one agent whose policy holds payments above 10 USDC, the agent funded with 100. */
export async function ownerWithFundedAgent(stack: DashboardStack) {
  const owner = await createHolder(stack, 'owner');
  const policy = { daily_limit_usdc: 100, per_transaction_limit_usdc: 50, hitl_threshold_usdc: 10 };
  const created = await http(stack.baseUrl, 'POST', '/v1/accounts/me/agents', {
    token: owner.token,
    body: { name: 'shopper', spend_policy: policy },
  });
  expect(created.status).toBe(201);
  const agent = created.body as { account_id: string; handle: string };
  const key = await http(stack.baseUrl, 'POST', `/v1/agents/${agent.account_id}/api-keys`, {
    token: owner.token,
    body: { name: 'bot' },
  });
  expect(key.status).toBe(201);
  const agentToken = (key.body as { secret: string }).secret;
  await fund(stack, agentToken, '100');
  return { owner, agent, agentToken };
}

/** The agent asks to pay more than its threshold: `202`, held for the owner's decision. */
export async function heldPayment(
  stack: DashboardStack,
  agentToken: string,
  to: string,
  amount: string,
): Promise<string> {
  const held = await http(stack.baseUrl, 'POST', '/v1/transfers', {
    token: agentToken,
    body: { to, amount },
  });
  expect(held).toMatchObject({ status: 202, body: { status: 'pending_approval' } });
  return (held.body as { transaction_id: string }).transaction_id;
}

/** The balance the API confirms for a client-side proof, as any SDK user would read it. */
export async function provenUsdc(
  stack: DashboardStack,
  holder: Pick<Holder, 'token' | 'decryptionKey'>,
): Promise<string | undefined> {
  const listed = await http(stack.baseUrl, 'GET', '/v1/accounts/me/balances?include=ciphertext', {
    token: holder.token,
  });
  const entry = (
    listed.body as { balances: { asset: string; ciphertext?: string; decryptable_balance?: string }[] }
  ).balances.find((b) => b.asset === 'USDC');
  if (!entry?.ciphertext) {
    return undefined;
  }
  const proof = createDecryptionProof(holder.decryptionKey, [
    { asset: 'USDC', ciphertext: entry.ciphertext, decryptableBalance: entry.decryptable_balance },
  ]);
  const proven = await http(
    stack.baseUrl,
    'GET',
    `/v1/accounts/me/balances?decryption_proof=${encodeURIComponent(proof)}`,
    { token: holder.token },
  );
  return (proven.body as { balances: { asset: string; amount?: string }[] }).balances.find(
    (b) => b.asset === 'USDC',
  )?.amount;
}

export interface DashboardPage {
  context: BrowserContext;
  page: Page;
  /** Console errors, uncaught exceptions and CSP violations seen so far. */
  problems: string[];
}

/** A fresh browser profile (its own session storage) on the dashboard's sign-in screen. */
export async function openDashboard(
  stack: DashboardStack,
  viewport = { width: 1280, height: 860 },
): Promise<DashboardPage> {
  const context = await stack.browser.newContext({ viewport, baseURL: stack.baseUrl });
  // Fail at the step that hangs, well before the test's own timeout.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.goto('/dashboard');
  return { context, page, problems };
}

export async function signIn(page: Page, apiKey: string, decryptionKey?: string): Promise<void> {
  await page.getByLabel('API key').fill(apiKey);
  if (decryptionKey) {
    await page.getByLabel('Decryption key (optional)').fill(decryptionKey);
  }
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true, animations: 'disabled' });
}
