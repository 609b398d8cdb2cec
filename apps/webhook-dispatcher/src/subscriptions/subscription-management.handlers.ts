import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type Envelope,
  fail,
  GetWebhook,
  newId,
  ok,
  type RequestOf,
  type ResponseOf,
  type Result,
  RotateWebhookSecret,
  SendTestWebhook,
  UpdateWebhook,
  WEBHOOK_TEST_EVENT,
} from '@cts/contracts';
import { OnCommand } from '@cts/messaging';
import { SERVICE_NAME } from '@cts/runtime';
import { decodeBase64, encryptMemoFor } from '@cts/crypto';
import { UnitOfWork } from '@cts/persistence';
import { DeliveryScheduler } from '../attempts/delivery-scheduler';
import { toDeliveryResource } from '../deliveries/delivery.domain';
import { DeliveryRepository } from '../deliveries/delivery.repository';
import { DISPATCHER_SETTINGS, type DispatcherSettings } from '../dispatcher.settings';
import { EventRepository } from '../events/event.repository';
import { type TestEventData } from '../events/internal-event.domain';
import { buildWebhookPayload } from '../events/webhook-payload.domain';
import { generateWebhookSecret } from '../signing/webhook-signature.domain';
import { DestinationGuard } from '../ssrf/destination-guard';
import { SECRET_OVERLAP_MS } from './endpoint-health.domain';
import { SecretBox } from './secret-box';
import { checkEventTypes, toWebhookResource } from './subscription.domain';
import { type SubscriptionPatch, SubscriptionRepository } from './subscription.repository';

const notFound = () => fail('webhook_not_found', 'No such webhook');

/** Read, update (URL, events, disabled), rotate the secret, send a test: like Svix's endpoints. */
@Injectable()
export class SubscriptionManagementHandlers {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly subscriptions: SubscriptionRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly events: EventRepository,
    private readonly scheduler: DeliveryScheduler,
    private readonly guard: DestinationGuard,
    private readonly secrets: SecretBox,
    @Inject(SERVICE_NAME) private readonly consumer: string,
    @Inject(DISPATCHER_SETTINGS) private readonly settings: DispatcherSettings,
  ) {}

  @OnCommand(GetWebhook)
  async get(message: Envelope<RequestOf<typeof GetWebhook>>): Promise<Result<ResponseOf<typeof GetWebhook>>> {
    const { account_id, environment, webhook_id } = message.payload;
    const subscription = await this.subscriptions.findActive(account_id, environment, webhook_id);
    return subscription ? ok(toWebhookResource(subscription)) : notFound();
  }

  /**
   * `url` is checked as on create; `disabled: true` stops attempts (deliveries wait), `false`
   * resumes the waiting ones still within their 24 h retry window.
   */
  @OnCommand(UpdateWebhook)
  async update(
    message: Envelope<RequestOf<typeof UpdateWebhook>>,
  ): Promise<Result<ResponseOf<typeof UpdateWebhook>>> {
    const { account_id, environment, webhook_id, url, events, disabled } = message.payload;
    const patch: SubscriptionPatch = {};
    if (events !== undefined) {
      const checked = checkEventTypes(events);
      if (!checked.ok) {
        return fail('invalid_request', checked.message, { param: checked.param });
      }
      patch.events = checked.events;
    }
    if (url !== undefined) {
      const target = await this.guard.check(url.trim());
      if (!target.ok) {
        return fail('invalid_request', target.message, { param: 'url' });
      }
      patch.url = url.trim();
    }
    if (disabled !== undefined) {
      patch.disabled = disabled;
    }
    const updated = await this.unitOfWork.run(async (tx) => {
      const now = this.settings.clock.now();
      const subscription = await this.subscriptions.update(
        account_id,
        environment,
        webhook_id,
        patch,
        now,
        tx.manager,
      );
      if (subscription && disabled === true) {
        await this.deliveries.pause(subscription.id, tx.manager);
      } else if (subscription && disabled === false) {
        const windowStart = new Date(now.getTime() - this.settings.retry.windowMs);
        await this.deliveries.resume(subscription.id, windowStart, now, tx.manager);
      }
      return subscription;
    });
    if (!updated) {
      return notFound();
    }
    if (disabled === false) {
      this.scheduler.kick();
    }
    return ok(toWebhookResource(updated));
  }

  /** The new secret, encrypted to the requester's one-time key (as on create); the old one signs too for 24 h. */
  @OnCommand(RotateWebhookSecret)
  async rotate(
    message: Envelope<RequestOf<typeof RotateWebhookSecret>>,
  ): Promise<Result<ResponseOf<typeof RotateWebhookSecret>>> {
    const { account_id, environment, webhook_id, recipient_key } = message.payload;
    const recipientKey = decodeBase64(recipient_key);
    if (!recipientKey || recipientKey.length !== 32) {
      return fail('invalid_request', 'recipient_key must be a 32-byte ElGamal public key', {
        param: 'recipient_key',
      });
    }
    // Once per command: a redelivered rotation replays the first reply instead of rotating again.
    const { value } = await this.unitOfWork.once(message, this.consumer, async (tx) => {
      const now = this.settings.clock.now();
      const secret = generateWebhookSecret();
      const rotated = await this.subscriptions.rotateSecret(
        account_id,
        environment,
        webhook_id,
        this.secrets.seal(webhook_id, secret),
        new Date(now.getTime() + SECRET_OVERLAP_MS),
        tx.manager,
      );
      return rotated
        ? ok({ ...toWebhookResource(rotated), encrypted_secret: encryptMemoFor(recipientKey, secret) })
        : notFound();
    });
    return value;
  }

  /** A `webhook.test` event, stored (the events API lists it) and delivered to this endpoint alone, now. */
  @OnCommand(SendTestWebhook)
  async sendTest(
    message: Envelope<RequestOf<typeof SendTestWebhook>>,
  ): Promise<Result<ResponseOf<typeof SendTestWebhook>>> {
    const { account_id, environment, webhook_id, account_handle } = message.payload;
    const subscription = await this.subscriptions.findActive(account_id, environment, webhook_id);
    if (!subscription) {
      return notFound();
    }
    const now = this.settings.clock.now();
    const id = newId('evt', now.getTime());
    const data: TestEventData = { account_id, account: account_handle, webhook_id };
    const payload = buildWebhookPayload(
      { type: WEBHOOK_TEST_EVENT, data },
      { eventId: id, occurredAt: now },
      account_id,
    );
    // Once per command: a redelivered test replays the first reply instead of sending a second event.
    const { duplicate, value } = await this.unitOfWork.once(message, this.consumer, async (tx) => {
      const served = await this.events.recordInternal(
        {
          id,
          messageId: randomUUID(),
          type: WEBHOOK_TEST_EVENT,
          environment,
          accountIds: [account_id],
          data,
          occurredAt: now,
          createdAt: now,
        },
        JSON.stringify(payload),
        { only: webhook_id },
        tx.manager,
      );
      const delivery = await this.deliveries.find(webhook_id, id, tx.manager);
      return { endpoints: served, result: delivery ? ok(toDeliveryResource(delivery, [])) : notFound() };
    });
    if (!duplicate) {
      this.scheduler.kickFor(value.endpoints);
    }
    return value.result;
  }
}
