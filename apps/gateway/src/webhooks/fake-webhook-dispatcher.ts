import {
  CreateWebhook,
  DeleteWebhook,
  type EventResource,
  fail,
  GetEvent,
  GetWebhook,
  ListEvents,
  RotateWebhookSecret,
  SendTestWebhook,
  UpdateWebhook,
  ListWebhookDeliveries,
  ListWebhooks,
  newId,
  ok,
  ReplayWebhookEvent,
  type RequestOf,
  type ResponseOf,
  type Result,
  type WebhookDelivery,
  type WebhookSubscription,
} from '@cts/contracts';
import { decodeBase64, encryptMemoFor } from '@cts/crypto';
import { type InProcessBus } from '@cts/messaging';
import { FakeService } from '../testing/fake-service';
import { randomBytes } from 'node:crypto';

interface Stored {
  webhook: WebhookSubscription;
  accountId: string;
  environment: string;
  secret: string;
}

/**
 * An in-memory webhook-dispatcher on an in-process bus, for the gateway's tests: real envelopes and
 * contracts (the secret goes back encrypted to the request's one-time key, as for real).
 */
export class FakeWebhookDispatcher extends FakeService {
  readonly webhooks = new Map<string, Stored>();

  /** What ListEvents/GetEvent answer from, newest first, by account. */
  readonly events = new Map<string, EventResource[]>();

  constructor(bus: InProcessBus) {
    super(bus);
    this.on(CreateWebhook, (req) => this.create(req));
    this.on(GetWebhook, (req) => {
      const stored = this.find(req);
      return stored ? ok(stored.webhook) : fail('webhook_not_found', 'No such webhook');
    });
    this.on(UpdateWebhook, (req) => {
      const stored = this.find(req);
      if (!stored) {
        return fail('webhook_not_found', 'No such webhook');
      }
      const disabled = req.disabled ?? stored.webhook.disabled;
      stored.webhook = {
        ...stored.webhook,
        ...(req.url === undefined ? {} : { url: req.url }),
        ...(req.events === undefined ? {} : { events: req.events }),
        disabled,
        disabled_reason: disabled ? (stored.webhook.disabled_reason ?? 'manual') : null,
        disabled_at: disabled ? (stored.webhook.disabled_at ?? new Date().toISOString()) : null,
      };
      return ok(stored.webhook);
    });
    this.on(RotateWebhookSecret, (req) => {
      const stored = this.find(req);
      if (!stored) {
        return fail('webhook_not_found', 'No such webhook');
      }
      stored.secret = `whsec_${randomBytes(32).toString('base64')}`;
      stored.webhook = {
        ...stored.webhook,
        previous_secret_expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      };
      return ok({
        ...stored.webhook,
        encrypted_secret: encryptMemoFor(decodeBase64(req.recipient_key) ?? new Uint8Array(), stored.secret),
      });
    });
    this.on(SendTestWebhook, (req) =>
      this.find(req)
        ? ok({ ...delivery(req.webhook_id, newId('evt')), event: 'webhook.test' })
        : fail('webhook_not_found', 'No such webhook'),
    );
    this.on(ListEvents, (req) => {
      const all = (this.events.get(`${req.account_id}:${req.environment}`) ?? []).filter(
        (event) => req.types.length === 0 || req.types.includes(event.event),
      );
      const start =
        req.starting_after === undefined ? 0 : all.findIndex((e) => e.event_id === req.starting_after) + 1;
      if (req.starting_after !== undefined && start === 0) {
        return fail('invalid_request', 'starting_after is not an event of this account', {
          param: 'starting_after',
        });
      }
      return ok({ events: all.slice(start, start + req.limit), has_more: all.length > start + req.limit });
    });
    this.on(GetEvent, (req) => {
      const event = (this.events.get(`${req.account_id}:${req.environment}`) ?? []).find(
        (e) => e.event_id === req.event_id,
      );
      return event ? ok(event) : fail('event_not_found', 'No such event');
    });
    this.on(ListWebhooks, (req) =>
      ok({ webhooks: this.owned(req.account_id, req.environment).map((stored) => stored.webhook) }),
    );
    this.on(DeleteWebhook, (req) => {
      const stored = this.find(req);
      if (!stored) {
        return fail('webhook_not_found', 'No such webhook');
      }
      this.webhooks.delete(req.webhook_id);
      return ok({ webhook_id: req.webhook_id, deleted_at: new Date().toISOString() });
    });
    this.on(ListWebhookDeliveries, (req) => {
      if (!this.find(req)) {
        return fail('webhook_not_found', 'No such webhook');
      }
      const log = this.log(req.webhook_id);
      return ok({
        deliveries: log.slice(req.offset, req.offset + req.limit),
        has_more: log.length > req.offset + req.limit,
      });
    });
    this.on(ReplayWebhookEvent, (req) => {
      if (!this.find(req)) {
        return fail('webhook_not_found', 'No such webhook');
      }
      return req.event_id.startsWith('evt_known')
        ? ok(delivery(req.webhook_id, req.event_id))
        : fail('event_not_found', 'No such event');
    });
  }

  /** Three deliveries per webhook, newest first: one retried then delivered, one that got no answer, one new. */
  private log(webhookId: string): WebhookDelivery[] {
    const at = '2026-01-01T00:00:00.000Z';
    const attempt = (n: number, code: number | null) => ({
      attempt_number: n,
      attempted_at: at,
      duration_ms: 12,
      response_status_code: code,
      error: code === null ? ('timeout' as const) : null,
    });
    return [
      delivery(webhookId, 'evt_listed_3'),
      {
        ...delivery(webhookId, 'evt_listed_2'),
        attempt_count: 1,
        response_status_code: null,
        last_attempt_at: at,
        attempts: [attempt(1, null)],
      },
      {
        ...delivery(webhookId, 'evt_listed_1'),
        status: 'succeeded',
        attempt_count: 2,
        retry_count: 1,
        response_status_code: 200,
        last_attempt_at: at,
        next_attempt_at: null,
        attempts: [attempt(1, 500), attempt(2, 200)],
      },
    ];
  }

  private create(req: RequestOf<typeof CreateWebhook>): Result<ResponseOf<typeof CreateWebhook>> {
    const webhook: WebhookSubscription = {
      webhook_id: newId('wh'),
      url: req.url,
      events: req.events,
      created_at: new Date().toISOString(),
      disabled: false,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      previous_secret_expires_at: null,
    };
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    this.webhooks.set(webhook.webhook_id, {
      webhook,
      accountId: req.account_id,
      environment: req.environment,
      secret,
    });
    return ok({
      ...webhook,
      encrypted_secret: encryptMemoFor(decodeBase64(req.recipient_key) ?? new Uint8Array(), secret),
    });
  }

  private owned(accountId: string, environment: string): Stored[] {
    return [...this.webhooks.values()].filter(
      (s) => s.accountId === accountId && s.environment === environment,
    );
  }

  private find(req: { account_id: string; environment: string; webhook_id: string }): Stored | undefined {
    const stored = this.webhooks.get(req.webhook_id);
    return stored && stored.accountId === req.account_id && stored.environment === req.environment
      ? stored
      : undefined;
  }
}

function delivery(webhookId: string, eventId: string): WebhookDelivery {
  return {
    delivery_id: newId('dlv'),
    webhook_id: webhookId,
    event_id: eventId,
    event: 'transfer.confirmed',
    status: 'pending',
    attempt_count: 0,
    retry_count: 0,
    response_status_code: null,
    last_attempt_at: null,
    next_attempt_at: new Date().toISOString(),
    created_at: new Date().toISOString(),
    failure_reason: null,
    attempts: [],
  };
}
