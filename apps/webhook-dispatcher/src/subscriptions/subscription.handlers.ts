import { Inject, Injectable } from '@nestjs/common';
import {
  CreateWebhook,
  DeleteWebhook,
  type Envelope,
  fail,
  ListWebhooks,
  newId,
  ok,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { OnCommand } from '@cts/messaging';
import { SERVICE_NAME } from '@cts/runtime';
import { decodeBase64, encryptMemoFor } from '@cts/crypto';
import { UnitOfWork } from '@cts/persistence';
import { DeliveryRepository } from '../deliveries/delivery.repository';
import { DISPATCHER_SETTINGS, type DispatcherSettings } from '../dispatcher.settings';
import { generateWebhookSecret } from '../signing/webhook-signature.domain';
import { DestinationGuard } from '../ssrf/destination-guard';
import { SecretBox } from './secret-box';
import { checkEventTypes, FRESH_STATE, toWebhookResource } from './subscription.domain';
import { SubscriptionRepository } from './subscription.repository';

@Injectable()
export class SubscriptionHandlers {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly subscriptions: SubscriptionRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly guard: DestinationGuard,
    private readonly secrets: SecretBox,
    @Inject(SERVICE_NAME) private readonly consumer: string,
    @Inject(DISPATCHER_SETTINGS) private readonly settings: DispatcherSettings,
  ) {}

  @OnCommand(CreateWebhook)
  async create(
    message: Envelope<RequestOf<typeof CreateWebhook>>,
  ): Promise<Result<ResponseOf<typeof CreateWebhook>>> {
    const { account_id, environment, url, events, recipient_key } = message.payload;
    const recipientKey = decodeBase64(recipient_key);
    if (!recipientKey || !isEncryptionKey(recipientKey)) {
      return fail('invalid_request', 'recipient_key must be a 32-byte ElGamal public key', {
        param: 'recipient_key',
      });
    }
    const eventTypes = checkEventTypes(events);
    if (!eventTypes.ok) {
      return fail('invalid_request', eventTypes.message, { param: eventTypes.param });
    }
    const target = await this.guard.check(url.trim());
    if (!target.ok) {
      return fail('invalid_request', target.message, { param: 'url' });
    }
    // The inbox keeps the reply for a redelivered command: it holds the secret only encrypted to
    // the requester's one-time key, and the row holds it only sealed.
    const { value } = await this.unitOfWork.once(message, this.consumer, async (tx) => {
      const limit = this.settings.maxSubscriptionsPerAccount;
      if ((await this.subscriptions.countActiveLocked(account_id, environment, tx.manager)) >= limit) {
        return fail(
          'invalid_request',
          `An account has at most ${limit} webhook subscriptions per environment: delete one first`,
          { reason: 'webhook_limit_reached' },
        );
      }
      const now = this.settings.clock.now();
      const id = newId('wh', now.getTime());
      const secret = generateWebhookSecret();
      const subscription = await this.subscriptions.insert(
        {
          id,
          accountId: account_id,
          environment,
          url: url.trim(),
          events: eventTypes.events,
          createdAt: now,
          ...FRESH_STATE,
        },
        this.secrets.seal(id, secret),
        tx.manager,
      );
      return ok({
        ...toWebhookResource(subscription),
        encrypted_secret: encryptMemoFor(recipientKey, secret),
      });
    });
    return value;
  }

  @OnCommand(ListWebhooks)
  async list(
    message: Envelope<RequestOf<typeof ListWebhooks>>,
  ): Promise<Result<ResponseOf<typeof ListWebhooks>>> {
    const { account_id, environment } = message.payload;
    const subscriptions = await this.subscriptions.listActive(account_id, environment);
    return ok({ webhooks: subscriptions.map(toWebhookResource) });
  }

  /**
   * From the commit on, nothing of this subscription is attempted: pending and scheduled retries are
   * cancelled, and the row update waits for any attempt in flight on any replica.
   */
  @OnCommand(DeleteWebhook)
  async delete(
    message: Envelope<RequestOf<typeof DeleteWebhook>>,
  ): Promise<Result<ResponseOf<typeof DeleteWebhook>>> {
    const { account_id, environment, webhook_id } = message.payload;
    return this.unitOfWork.run(async (tx) => {
      const deletedAt = this.settings.clock.now();
      if (
        !(await this.subscriptions.markDeleted(account_id, environment, webhook_id, deletedAt, tx.manager))
      ) {
        return fail('webhook_not_found', 'No such webhook');
      }
      await this.deliveries.cancelPending(webhook_id, tx.manager);
      return ok({ webhook_id, deleted_at: deletedAt.toISOString() });
    });
  }
}

/** A 32-byte ElGamal public key the secret can be encrypted to (a point on the curve). */
function isEncryptionKey(key: Uint8Array): boolean {
  try {
    encryptMemoFor(key, '');
    return key.length === 32;
  } catch {
    return false;
  }
}
