import { mkdirSync } from 'node:fs';
import { type Page, type Request } from 'playwright-core';
import { http } from './support/http';
import {
  createHolder,
  type DashboardPage,
  type DashboardStack,
  fund,
  heldPayment,
  openDashboard,
  ownerWithFundedAgent,
  provenUsdc,
  SCREENSHOTS,
  screenshot,
  signIn,
  startDashboardStack,
} from './support/dashboard';

// Chrome logs every 4xx fetch as a console error; the tests that expect one say so themselves.
const EXPECTED = /Failed to load resource: the server responded with a status of 4\d\d/;
const unexpected = (opened: DashboardPage) => opened.problems.filter((problem) => !EXPECTED.test(problem));

async function confirmDialog(page: Page, label: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: label }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('dashboard at /dashboard (one-process mode, Chromium)', () => {
  let stack: DashboardStack;
  const pages: DashboardPage[] = [];
  const open = async (viewport?: { width: number; height: number }) => {
    const opened = await openDashboard(stack, viewport);
    pages.push(opened);
    return opened;
  };

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    stack = await startDashboardStack();
  }, 120_000);

  afterEach(async () => {
    for (const opened of pages.splice(0)) {
      const problems = unexpected(opened);
      await opened.context.close();
      // No script error and no CSP violation on any screen a test went through.
      expect(problems).toEqual([]);
    }
  });

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it('serves the page with a strict CSP and signs in with an API key kept in session storage only', async () => {
    const root = await fetch(`${stack.baseUrl}/dashboard/`);
    expect(root.headers.get('content-security-policy')).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(root.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    for (const path of ['/dashboard/..%2Fpackage.json', '/dashboard/.env', '/dashboard/build.mjs']) {
      expect((await fetch(`${stack.baseUrl}${path}`)).status).toBe(404);
    }
    const holder = await createHolder(stack);
    const { page } = await open();
    await screenshot(page, 'dashboard-sign-in.png');
    await page.getByLabel('API key').fill('svc_test_not_a_real_key_at_all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This API key was not accepted').waitFor();

    await signIn(page, holder.token);
    await expect(page.locator('#account-handle').textContent()).resolves.toBe(holder.handle);
    await page.getByRole('heading', { level: 1, name: 'Transfers' }).waitFor();
    expect(await page.evaluate<Record<string, string>>('({ ...sessionStorage })')).toEqual({
      'cts.dashboard.api_key': holder.token,
    });
    expect(await page.evaluate<number>('localStorage.length')).toBe(0);

    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate<number>('sessionStorage.length')).toBe(0);
  }, 30_000);

  it('keeps the API key through an outage at start-up and a hash that does not decode', async () => {
    const holder = await createHolder(stack);
    const opened = await open();
    const { page } = opened;
    await signIn(page, holder.token);
    await page.getByRole('heading', { level: 1, name: 'Transfers' }).waitFor();

    // The service answers 503 while the page reloads: the error and a way to retry, still signed in.
    await page.route('**/v1/accounts/me', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'service_unavailable', message: 'Try again shortly' } }),
      }),
    );
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'The dashboard could not load' }).waitFor();
    await page.getByText('Try again shortly').waitFor();
    expect(await page.evaluate<string | null>("sessionStorage.getItem('cts.dashboard.api_key')")).toBe(
      holder.token,
    );
    await page.unroute('**/v1/accounts/me');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { level: 1, name: 'Transfers' }).waitFor();
    // Chrome logs the simulated 503s; nothing else may be logged.
    opened.problems.splice(
      0,
      opened.problems.length,
      ...opened.problems.filter((p) => !/status of 503/.test(p)),
    );

    // A badly percent-encoded hash is an unknown route: the first screen, still signed in.
    // (replaceState: no hashchange, so the reload is what meets it.)
    await page.evaluate("history.replaceState(null, '', '#/agents/%E0%A4%A')");
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Transfers' }).waitFor();
    await expect(page.locator('#account-handle').textContent()).resolves.toBe(holder.handle);
  }, 30_000);

  it('keeps the view a navigation link opened while the first poll of pending payments is still out', async () => {
    const holder = await createHolder(stack);
    const { page } = await open();
    let releasePoll = () => {};
    const pollHeld = new Promise<void>((resolve) => (releasePoll = resolve));
    await page.route('**/v1/agents/transactions/pending*', async (route) => {
      await pollHeld;
      await route.continue();
    });
    await signIn(page, holder.token);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    const url = page.getByLabel('Endpoint URL');
    await url.fill('https://example.com/typed-before-the-poll-answered');

    const answered = page.waitForResponse('**/v1/agents/transactions/pending*');
    releasePoll();
    await answered;
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
    await expect(url.inputValue()).resolves.toBe('https://example.com/typed-before-the-poll-answered');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Webhooks');
  }, 30_000);

  it('approves a held agent payment from the inbox, and the transfer settles', async () => {
    const { owner, agent, agentToken } = await ownerWithFundedAgent(stack);
    const merchant = await createHolder(stack, 'shop');
    const transactionId = await heldPayment(stack, agentToken, merchant.handle, '15');

    const { page } = await open();
    await signIn(page, owner.token, owner.decryptionKey);
    // Something is pending: the inbox is the first screen.
    await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
    const card = page.locator(`[data-transaction-id="${transactionId}"]`);
    await card.getByRole('heading', { name: `15 USDC to ${merchant.handle} from ${agent.handle}` }).waitFor();
    await expect(card.textContent()).resolves.toMatch(/left/);
    await expect(page.locator('#pending-count').textContent()).resolves.toBe('1 pending');
    await screenshot(page, 'dashboard-approvals.png');

    // Keyboard only: the dialog opens on Cancel (the safe choice), Tab reaches the confirmation.
    await card.getByRole('button', { name: 'Approve' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Approve this payment?' });
    await expect(
      dialog
        .getByRole('button', { name: 'Cancel' })
        .evaluate((el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement),
    ).resolves.toBe(true);
    await expect(dialog.textContent()).resolves.toContain(`Send 15 USDC to ${merchant.handle}`);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    const notice = page.getByRole('status').filter({ hasText: 'Approved: transfer' });
    await notice.waitFor();
    const transferId = /transfer (tr_\w+)/.exec((await notice.textContent()) ?? '')?.[1] ?? '';
    await card.waitFor({ state: 'detached' });

    expect(
      (await http(stack.baseUrl, 'GET', `/v1/transfers/${transferId}`, { token: agentToken })).body,
    ).toMatchObject({ status: 'confirmed', to: merchant.handle });
    expect(
      (await http(stack.baseUrl, 'GET', '/v1/agents/transactions/pending', { token: owner.token })).body,
    ).toEqual({ pending: [] });
    expect(await provenUsdc(stack, merchant)).toBe('15');

    // The agent's page shows what became of the held payment, its amount opened locally.
    await page.getByRole('link', { name: 'Agents' }).click();
    await page.getByRole('link', { name: `View or edit policy of ${agent.handle}` }).click();
    await page.locator('dt:text-is("Last changed") + dd time').waitFor();
    const held = page.locator(`tr[data-transaction-id="${transactionId}"]`);
    await held.getByText('15 USDC').waitFor();
    await held.getByText('Approved').waitFor();
    await expect(held.locator('code.id').getAttribute('title')).resolves.toBe(transferId);
  }, 40_000);

  it('rejects a held payment, with its amount locked when no decryption key was given', async () => {
    const { owner, agentToken } = await ownerWithFundedAgent(stack);
    const merchant = await createHolder(stack, 'shop');
    const { page } = await open({ width: 390, height: 844 });
    await signIn(page, owner.token);
    // Nothing pending yet: the first screen is Transfers, and the inbox is empty.
    await page.getByRole('heading', { level: 1, name: 'Transfers' }).waitFor();
    await page.getByRole('link', { name: 'Approvals' }).click();
    await page.getByText('Nothing is waiting for your approval.').waitFor();

    // Held while the page is open: the inbox picks them up by polling, without a reload.
    const transactionId = await heldPayment(stack, agentToken, merchant.handle, '12');
    const laterId = await heldPayment(stack, agentToken, merchant.handle, '13');
    await page.getByText('2 payments waiting for your decision.').waitFor();
    const card = page.locator(`[data-transaction-id="${transactionId}"]`);
    await card.getByText('Locked', { exact: true }).waitFor();
    await screenshot(page, 'dashboard-approvals-phone.png');
    await card.getByRole('button', { name: 'Reject' }).click();
    await confirmDialog(page, 'Reject payment');
    await page.getByRole('status').filter({ hasText: 'Rejected: nothing was sent.' }).waitFor();

    const again = await http(stack.baseUrl, 'POST', `/v1/agents/transactions/${transactionId}/approve`, {
      token: owner.token,
    });
    expect(again.body).toMatchObject({ error: { code: 'transaction_already_decided' } });
    expect(await provenUsdc(stack, merchant)).toBe('0');

    // The page's clock passes the 60-minute window: the other payment shows as expired, undecidable.
    await page.clock.install();
    await page.reload();
    const later = page.locator(`[data-transaction-id="${laterId}"]`);
    await later.getByText(/min left$/).waitFor();
    await page.clock.fastForward(61 * 60_000);
    await later.getByText('Expired', { exact: true }).waitFor();
    await expect(later.getByRole('button', { name: 'Approve' }).count()).resolves.toBe(0);
  }, 40_000);

  it('creates an API key whose secret is shown once with a copy button, then revokes it', async () => {
    const holder = await createHolder(stack);
    const { context, page } = await open();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });
    await signIn(page, holder.token);
    await page.getByRole('link', { name: 'API keys' }).click();
    // A test session cannot create live keys: not offered.
    await expect(page.getByLabel('Environment').locator('option').allTextContents()).resolves.toEqual([
      'Test (svc_test_)',
    ]);
    await page.getByLabel('Name', { exact: true }).fill('billing server');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secretInput = page.getByLabel('API key', { exact: true });
    const secret = await secretInput.inputValue();
    expect(secret).toMatch(/^svc_test_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(secret);
    expect((await http(stack.baseUrl, 'GET', '/v1/accounts/me', { token: secret })).status).toBe(200);
    await screenshot(page, 'dashboard-keys.png');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await expect(page.locator('[data-secret]').count()).resolves.toBe(0);

    const row = page.getByRole('row').filter({ hasText: 'billing server' });
    await row.getByRole('button', { name: 'Revoke billing server' }).click();
    await confirmDialog(page, 'Revoke key');
    await row.getByText(/^Revoked/).waitFor();
    expect((await http(stack.baseUrl, 'GET', '/v1/accounts/me', { token: secret })).status).toBe(401);
  }, 30_000);

  it('replays a webhook event from the delivery log as a new delivery', async () => {
    const [sender, recipient] = [await createHolder(stack), await createHolder(stack, 'payee')];
    const path = `/hooks/${sender.accountId}`;
    const subscribed = await http(stack.baseUrl, 'POST', '/v1/webhooks', {
      token: sender.token,
      body: { url: stack.receiver.url(path), events: ['transfer.confirmed'] },
    });
    expect(subscribed.status).toBe(201);
    await fund(stack, sender.token, '5');
    expect(
      (
        await http(stack.baseUrl, 'POST', '/v1/transfers', {
          token: sender.token,
          body: { to: recipient.handle, amount: '2' },
        })
      ).status,
    ).toBe(200);
    await waitFor(() => stack.receiver.received(path).length >= 1);
    const eventIds = () =>
      stack.receiver.received(path).map((r) => (JSON.parse(r.body) as { event_id: string }).event_id);
    const eventId = eventIds()[0];

    const { page } = await open();
    await signIn(page, sender.token);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('Delivery log').click();
    const rows = page.locator(`tr[data-event-id="${eventId}"]`);
    await rows.first().getByText('succeeded').waitFor();
    await expect(rows.count()).resolves.toBe(1);
    await rows
      .first()
      .getByRole('button', { name: /^Replay/ })
      .click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Replayed transfer\.confirmed as delivery dlv_/ })
      .waitFor();
    await rows.filter({ hasText: 'succeeded' }).nth(1).waitFor();
    await screenshot(page, 'dashboard-webhooks.png');

    // The same event reached the receiver a second time.
    await waitFor(() => eventIds().filter((id) => id === eventId).length === 2);
  }, 40_000);

  it('never sends the decryption key: not in a URL, a header or a body, on any screen', async () => {
    const { owner, agent, agentToken } = await ownerWithFundedAgent(stack);
    await fund(stack, owner.token, '40');
    // Below the agent's threshold: paid at once, and the owner has a received transfer to list.
    expect(
      (
        await http(stack.baseUrl, 'POST', '/v1/transfers', {
          token: agentToken,
          body: { to: owner.handle, amount: '5' },
        })
      ).status,
    ).toBe(200);
    const shop = await createHolder(stack, 'shop');
    const paid = await http(stack.baseUrl, 'POST', '/v1/transfers', {
      token: owner.token,
      body: { to: shop.handle, amount: '3.25', memo: 'coffee beans' },
    });
    expect(paid.status).toBe(200);
    const { page } = await open();
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));
    await signIn(page, owner.token, owner.decryptionKey);

    await page.getByRole('link', { name: 'Balances' }).click();
    const usdc = page.locator('tr[data-asset="USDC"]');
    await usdc.getByText('41.75 USDC').waitFor();
    await usdc.getByText('Proof accepted by the service').waitFor();
    await screenshot(page, 'dashboard-balances.png');
    await page.getByRole('link', { name: 'Transfers' }).click();
    const sentRow = page.getByRole('row').filter({ hasText: shop.handle });
    await sentRow.getByText('3.25 USDC').waitFor();
    await sentRow.getByText('coffee beans').waitFor();
    await page.getByRole('row').filter({ hasText: 'Received' }).getByText('5 USDC').waitFor();
    await screenshot(page, 'dashboard-transfers.png');
    await page.getByLabel('Status', { exact: true }).selectOption('failed');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No transfers match.').waitFor();
    expect(page.url()).toContain('#/transfers?status=failed');
    await page.getByRole('link', { name: 'Agents' }).click();
    await page.getByRole('link', { name: `View or edit policy of ${agent.handle}` }).click();
    await page.getByLabel('Daily limit (USDC)').fill('-5');
    await page.getByRole('button', { name: 'Save policy' }).click();
    await page.getByText('The policy was not saved: daily_limit_usdc must not be negative').waitFor();
    await page.getByLabel('Daily limit (USDC)').fill('80');
    await page.getByRole('button', { name: 'Save policy' }).click();
    await page.getByRole('status').filter({ hasText: 'Policy saved: daily_limit_usdc changed' }).waitFor();
    await screenshot(page, 'dashboard-agents.png');
    for (const view of ['Approvals', 'API keys', 'Webhooks']) {
      await page.getByRole('link', { name: view }).click();
      await page.getByRole('heading', { level: 1, name: view }).waitFor();
    }

    const body = owner.decryptionKey.slice('dk1_'.length);
    expect(requests.length).toBeGreaterThan(10);
    for (const request of requests) {
      const sent = [request.url(), JSON.stringify(await request.allHeaders()), request.postData() ?? ''].join(
        '\n',
      );
      expect(sent).not.toContain(body);
      // The API key travels in the Authorization header only, never in a URL.
      expect(request.url()).not.toContain(owner.token);
    }
    expect(
      JSON.stringify(await page.evaluate<Record<string, string>>('({ ...sessionStorage, ...localStorage })')),
    ).not.toContain(body);
  }, 40_000);
});

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error('timed out waiting');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
