import { createHmac, randomBytes } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format, shown to the user once. */
export function generateWebhookSecret(random: (size: number) => Buffer = randomBytes): string {
  return `${WEBHOOK_SECRET_PREFIX}${random(SECRET_BYTES).toString('base64')}`;
}

/** The key of the Standard Webhooks signature: the bytes the base64 after `whsec_` encodes. */
export function standardSigningKey(secret: string): Buffer {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) {
    throw new Error('a webhook secret starts with whsec_');
  }
  return Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
}

/**
 * Spec §6.3: lowercase hex HMAC-SHA256 of the raw body, keyed with the secret string exactly as the
 * user received it (UTF-8 of the whole `whsec_…`), so `hmac(secret, body)` in any language matches.
 */
export function serviceSignature(secret: string, body: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body, 'utf8').digest('hex');
}

/** Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` under the decoded key. */
export function standardSignature(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  const mac = createHmac('sha256', standardSigningKey(secret)).update(
    `${id}.${timestampSeconds}.${body}`,
    'utf8',
  );
  return `v1,${mac.digest('base64')}`;
}

export interface SignedRequest {
  secret: string;
  /**
   * Secrets that sign beside `secret` (the previous one, for 24 h after a rotation): each adds a
   * `v1,` signature to `webhook-signature`; `X-Service-Signature` carries only `secret`'s.
   */
  alsoSignedWith?: readonly string[];
  /** The event id: stable across retries, so receivers can deduplicate. */
  webhookId: string;
  /** Unix seconds of this attempt: lets receivers refuse old replays. */
  timestampSeconds: number;
  body: string;
  userAgent: string;
}

/** Every header of a delivery attempt (header names lowercase, as HTTP/2 and Node print them). */
export function deliveryHeaders(request: SignedRequest): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': request.userAgent,
    'x-service-signature': serviceSignature(request.secret, request.body),
    'webhook-id': request.webhookId,
    'webhook-timestamp': String(request.timestampSeconds),
    'webhook-signature': [request.secret, ...(request.alsoSignedWith ?? [])]
      .map((secret) => standardSignature(secret, request.webhookId, request.timestampSeconds, request.body))
      .join(' '),
  };
}
