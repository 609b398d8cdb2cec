import { verifyWebhookSignature } from '@cts/sdk';
import { type Page } from 'playwright-core';
import { http } from './support/http';
import {
  createHolder,
  type DashboardPage,
  type DashboardStack,
  fund,
  heldPayment,
  openDashboard,
  ownerWithFundedAgent,
  screenshot,
  signIn,
  startDashboardStack,
} from './support/dashboard';

// An endpoint failing this long is disabled automatically (5 days in production).
const DISABLE_AFTER_MS = 4_000;
// Chrome logs every 4xx fetch as a console error; the edit test expects one.
const EXPECTED = /Failed to load resource: the server responded with a status of 4\d\d/;

interface WebhookState {
  disabled: boolean;
  disabled_reason: string | null;
  failing_since: string | null;
  events: string[];
  url: string;
}

describe('dashboard: webhook subscriptions and held payments (one-process mode, Chromium)', () => {
  let stack: DashboardStack;
  const pages: DashboardPage[] = [];
  const open = async () => {
    const opened = await openDashboard(stack);
    pages.push(opened);
    return opened;
  };
  const webhook = async (token: string, id: string) =>
    (await http(stack.baseUrl, 'GET', `/v1/webhooks/${id}`, { token })).body as WebhookState;

  beforeAll(async () => {
    stack = await startDashboardStack({ WEBHOOK_DISABLE_AFTER: `${DISABLE_AFTER_MS / 1000}s` });
  }, 120_000);

  afterEach(async () => {
    for (const opened of pages.splice(0)) {
      const problems = opened.problems.filter((problem) => !EXPECTED.test(problem));
      await opened.context.close();
      expect(problems).toEqual([]);
    }
  });

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it('subscribes, sends a test event, disables and enables, rotates the secret and edits the events', async () => {
    const holder = await createHolder(stack);
    const path = `/hooks/${holder.accountId}`;
    const url = stack.receiver.url(path);
    const { page } = await open();
    await signIn(page, holder.token);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const secret = await page.getByRole('textbox', { name: 'Signing secret', exact: true }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    const card = page.locator('li[data-webhook-id]').filter({ hasText: url });
    await card.locator('[data-state="active"]').waitFor();
    const webhookId = (await card.getAttribute('data-webhook-id')) ?? '';

    // A test event reaches the endpoint now, signed with the secret shown.
    await card.getByRole('button', { name: 'Send test event' }).click();
    await notice(page, /^Test event sent to .* as delivery dlv_/);
    await until(() => stack.receiver.received(path).length === 1);
    const first = stack.receiver.received(path)[0];
    expect(JSON.parse(first?.body ?? '{}')).toMatchObject({ event: 'webhook.test' });
    expect(verifyWebhookSignature(secret, first?.body ?? '', first?.headers ?? {})).toBe(true);

    // Disabled by hand: the card says so, and the API agrees; enabled again.
    await card.getByRole('button', { name: 'Disable' }).click();
    await notice(page, `Subscription to ${url} disabled.`);
    await card
      .locator('[data-state="disabled-manual"]')
      .getByText(/^Disabled by you/)
      .waitFor();
    expect(await webhook(holder.token, webhookId)).toMatchObject({
      disabled: true,
      disabled_reason: 'manual',
    });
    await card.getByRole('button', { name: 'Enable' }).click();
    await card.locator('[data-state="active"]').waitFor();
    expect(await webhook(holder.token, webhookId)).toMatchObject({ disabled: false });

    // Rotation: the new secret is shown once; for a while deliveries carry both signatures.
    await card.getByRole('button', { name: 'Rotate signing secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('heading', { name: `New signing secret for ${url}` }).waitFor();
    const rotated = await page.getByRole('textbox', { name: 'Signing secret', exact: true }).inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await card.locator('[data-previous-secret]').getByText('Still signs deliveries until').waitFor();
    await screenshot(page, 'dashboard-webhook-rotated.png');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await expect(page.locator('[data-secret]').count()).resolves.toBe(0);
    await card.getByRole('button', { name: 'Send test event' }).click();
    await until(() => stack.receiver.received(path).length === 2);
    const second = stack.receiver.received(path)[1];
    for (const key of [rotated, secret]) {
      expect(verifyWebhookSignature(key, second?.body ?? '', second?.headers ?? {})).toBe(true);
    }

    // Edit: a refused URL is explained at the field; a new event set is saved.
    await card.getByText('Edit URL and events').click();
    const form = card.getByRole('form', { name: `Edit ${url}` });
    await form.getByLabel('Endpoint URL').fill('http://example.com/hooks');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByText(/https:\/\//).waitFor();
    await expect(form.getByLabel('Endpoint URL').getAttribute('aria-invalid')).resolves.toBe('true');
    await form.getByLabel('Endpoint URL').fill(url);
    await form.getByLabel('agent.created').check();
    await form.getByRole('button', { name: 'Save changes' }).click();
    await notice(page, `Subscription to ${url} saved: events changed.`);
    await card.locator('dd[data-events]', { hasText: 'agent.created' }).waitFor();
    expect((await webhook(holder.token, webhookId)).events).toContain('agent.created');
  }, 60_000);

  it('shows an endpoint failing, then disabled automatically and why; the account is told', async () => {
    const holder = await createHolder(stack);
    const failingPath = `/failing/${holder.accountId}`;
    const watchPath = `/watch/${holder.accountId}`;
    stack.receiver.on(failingPath, () => ({ status: 500 }));
    const subscribe = async (path: string, events: string[]) => {
      const created = await http(stack.baseUrl, 'POST', '/v1/webhooks', {
        token: holder.token,
        body: { url: stack.receiver.url(path), events },
      });
      expect(created.status).toBe(201);
      return (created.body as { webhook_id: string }).webhook_id;
    };
    const failingId = await subscribe(failingPath, ['transfer.confirmed']);
    await subscribe(watchPath, ['webhook.endpoint.disabled']);

    const { page } = await open();
    await signIn(page, holder.token);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    const card = page.locator(`li[data-webhook-id="${failingId}"]`);
    await card.getByRole('button', { name: 'Send test event' }).click();
    await notice(page, /^Test event sent to .*failing/);
    await untilAsync(async () => (await webhook(holder.token, failingId)).failing_since !== null);
    await page.reload();
    await card
      .locator('[data-state="failing"]')
      .getByText(/^Active, but every delivery failed since/)
      .waitFor();

    // Past WEBHOOK_DISABLE_AFTER, a failed attempt (a retry, or this test event) disables it.
    const { failing_since } = await webhook(holder.token, failingId);
    await sleep(Math.max(0, new Date(failing_since ?? 0).getTime() + DISABLE_AFTER_MS - Date.now()));
    await card.getByRole('button', { name: 'Send test event' }).click();
    await untilAsync(async () => (await webhook(holder.token, failingId)).disabled);
    expect(await webhook(holder.token, failingId)).toMatchObject({ disabled_reason: 'endpoint_failing' });
    await page.reload();
    const state = card.locator('[data-state="disabled-endpoint_failing"]');
    await state.getByText(/^Disabled automatically/).waitFor();
    await expect(state.textContent()).resolves.toContain(': every delivery failed since ');
    await expect(state.locator('time').last().getAttribute('datetime')).resolves.toBe(failing_since);
    await card.getByRole('button', { name: 'Enable' }).waitFor();
    await screenshot(page, 'dashboard-webhook-disabled.png');

    await until(() => stack.receiver.received(watchPath).length >= 1);
    expect(JSON.parse(stack.receiver.received(watchPath)[0]?.body ?? '{}')).toMatchObject({
      event: 'webhook.endpoint.disabled',
      webhook_id: failingId,
      reason: 'endpoint_failing',
    });
  }, 60_000);

  it("lists the account's events, filters them by type, pages back and shows each payload", async () => {
    const [holder, payee] = [await createHolder(stack), await createHolder(stack, 'payee')];
    const subscribed = await http(stack.baseUrl, 'POST', '/v1/webhooks', {
      token: holder.token,
      body: { url: stack.receiver.url(`/events/${holder.accountId}`), events: ['transfer.confirmed'] },
    });
    const webhookId = (subscribed.body as { webhook_id: string }).webhook_id;
    for (let i = 0; i < 21; i += 1) {
      const sent = await http(stack.baseUrl, 'POST', `/v1/webhooks/${webhookId}/test`, {
        token: holder.token,
      });
      expect(sent.status).toBe(202);
    }
    await fund(stack, holder.token, '3');
    const paid = await http(stack.baseUrl, 'POST', '/v1/transfers', {
      token: holder.token,
      body: { to: payee.handle, amount: '1' },
    });
    expect(paid.status).toBe(200);
    const transferId = (paid.body as { transfer_id: string }).transfer_id;
    const listed = async (query: string) =>
      (
        (await http(stack.baseUrl, 'GET', `/v1/events?${query}`, { token: holder.token })).body as {
          events: { event_id: string; created_at: string }[];
        }
      ).events;
    await untilAsync(async () => (await listed('type=transfer.confirmed')).length === 1);
    const newest = (await listed('limit=100'))[0];

    const { page } = await open();
    await signIn(page, holder.token);
    await page.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('heading', { level: 1, name: 'Events' }).waitFor();
    const rows = page.locator('tr[data-event-id]');
    await rows.first().waitFor();
    await expect(rows.first().getAttribute('data-event-id')).resolves.toBe(newest?.event_id);
    await expect(rows.count()).resolves.toBe(20);

    // The payload is exactly what GET /v1/events/{id} returns, without created_at.
    await rows.first().getByText('Payload').click();
    const shown = JSON.parse((await rows.first().locator('pre').textContent()) ?? '{}') as object;
    const one = await http(stack.baseUrl, 'GET', `/v1/events/${newest?.event_id}`, { token: holder.token });
    const { created_at: _createdAt, ...expected } = one.body as Record<string, unknown>;
    expect(shown).toEqual(expected);
    await screenshot(page, 'dashboard-events.png');

    await page.getByLabel('Type', { exact: true }).selectOption('webhook.test');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    expect(page.url()).toContain('#/events?type=webhook.test');
    const firstRowIs = (id: string | undefined) =>
      untilAsync(async () => (await rows.first().getAttribute('data-event-id')) === id);
    await firstRowIs((await listed('type=webhook.test'))[0]?.event_id);
    await expect(rows.count()).resolves.toBe(20);
    await page.getByRole('button', { name: 'Load older events' }).click();
    await rows.nth(20).waitFor();
    await expect(rows.count()).resolves.toBe(21);
    await expect(page.getByRole('button', { name: 'Load older events' }).count()).resolves.toBe(0);
    expect(new Set(await rows.locator('td[data-label="Event"]').allTextContents())).toEqual(
      new Set(['webhook.test']),
    );

    await page.getByLabel('Type', { exact: true }).selectOption('transfer.confirmed');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await firstRowIs((await listed('type=transfer.confirmed'))[0]?.event_id);
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.first().locator('td[data-label="About"] code.id').getAttribute('title')).resolves.toBe(
      transferId,
    );

    // The subscription's delivery log pages back too (22 deliveries: 21 test events and the transfer).
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('Delivery log').click();
    const deliveries = page.locator('tr[data-delivery-id]');
    await deliveries.nth(19).waitFor();
    await expect(deliveries.count()).resolves.toBe(20);
    await page.getByRole('button', { name: 'Load older deliveries' }).click();
    await deliveries.nth(20).waitFor();
    await expect(page.getByRole('button', { name: 'Load older deliveries' }).count()).resolves.toBe(0);
    const ids: string[] = [];
    for (const row of await deliveries.all()) {
      ids.push((await row.getAttribute('data-delivery-id')) ?? '');
    }
    expect(new Set(ids).size).toBe(ids.length);
  }, 60_000);

  it("shows each held payment's state on the agent's page", async () => {
    const { owner, agent, agentToken } = await ownerWithFundedAgent(stack);
    const shop = await createHolder(stack, 'shop');
    const waiting = await heldPayment(stack, agentToken, shop.handle, '11');
    const refused = await heldPayment(stack, agentToken, shop.handle, '12');
    const rejected = await http(stack.baseUrl, 'POST', `/v1/agents/transactions/${refused}/reject`, {
      token: owner.token,
    });
    expect(rejected.status).toBe(200);

    const { page } = await open();
    await signIn(page, owner.token, owner.decryptionKey);
    await page.getByRole('link', { name: 'Agents' }).click();
    await page.getByRole('link', { name: `View or edit policy of ${agent.handle}` }).click();
    const row = (id: string) => page.locator(`tr[data-transaction-id="${id}"]`);
    await row(waiting).getByText('Waiting for your approval').waitFor();
    await row(waiting).getByText('11 USDC').waitFor();
    await row(refused).getByText('Rejected').waitFor();
    await row(refused).getByText('12 USDC').waitFor();
  }, 40_000);
});

async function notice(page: Page, text: string | RegExp): Promise<void> {
  await page.getByRole('status').filter({ hasText: text }).first().waitFor();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function until(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  await untilAsync(async () => Promise.resolve(condition()), timeoutMs);
}

async function untilAsync(condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error('timed out waiting');
    }
    await sleep(200);
  }
}
