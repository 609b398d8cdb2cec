import { Injectable } from '@nestjs/common';
import { CreateWebhook, type Environment, type MessageContext, RotateWebhookSecret } from '@cts/contracts';
import { decryptMemo, deriveElGamalPubkey, encodeBase64, generateElGamalSecret } from '@cts/crypto';
import { CommandBus } from '@cts/messaging';
import { unwrap } from '../http/result';
import { type CreateWebhookBody, type WebhookWithSecret } from './webhooks.schemas';

/**
 * Creating a webhook: webhook-dispatcher makes the secret and sends it back encrypted to a one-time
 * key of this request, so no topic and no stored reply holds it in the clear; it is shown once.
 */
@Injectable()
export class WebhooksService {
  constructor(private readonly commands: CommandBus) {}

  create(
    accountId: string,
    environment: Environment,
    body: CreateWebhookBody,
    context: MessageContext,
  ): Promise<WebhookWithSecret> {
    return receiveSecret(async (recipientKey) =>
      unwrap(
        await this.commands.send(
          CreateWebhook,
          { account_id: accountId, environment, ...body, recipient_key: recipientKey },
          context,
        ),
      ),
    );
  }

  /** A new secret, shown once; the old one keeps signing beside it for 24 hours. */
  rotateSecret(
    accountId: string,
    environment: Environment,
    webhookId: string,
    context: MessageContext,
  ): Promise<WebhookWithSecret> {
    return receiveSecret(async (recipientKey) =>
      unwrap(
        await this.commands.send(
          RotateWebhookSecret,
          { account_id: accountId, environment, webhook_id: webhookId, recipient_key: recipientKey },
          context,
        ),
      ),
    );
  }
}

/** Asks for a secret sealed to a one-time key, opens it, and wipes the key whatever happens. */
async function receiveSecret<T extends { encrypted_secret: string }>(
  request: (recipientKey: string) => Promise<T>,
): Promise<Omit<T, 'encrypted_secret'> & { secret: string }> {
  const oneTimeSecret = generateElGamalSecret();
  try {
    const { encrypted_secret, ...webhook } = await request(encodeBase64(deriveElGamalPubkey(oneTimeSecret)));
    return { ...webhook, secret: decryptMemo(oneTimeSecret, encrypted_secret) };
  } finally {
    oneTimeSecret.fill(0);
  }
}
