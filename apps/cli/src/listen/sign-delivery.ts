import { createHmac, randomBytes } from 'node:crypto';

/** `whsec_` + base64 of 32 random bytes, the format the service gives webhook secrets. */
export function newListenSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The headers webhook-dispatcher signs a delivery with, so a receiver verifies a forwarded event
 * exactly as a real delivery: `X-Service-Signature` (hex HMAC-SHA256 of the body keyed with the
 * whole secret string) and the Standard Webhooks `webhook-id` / `-timestamp` / `-signature`.
 */
export function deliveryHeaders(
  secret: string,
  eventId: string,
  body: string,
  timestampSeconds: number,
): Record<string, string> {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const standard = createHmac('sha256', key).update(`${eventId}.${timestampSeconds}.${body}`, 'utf8');
  return {
    'content-type': 'application/json',
    'user-agent': 'cts-listen/1',
    'x-service-signature': createHmac('sha256', secret).update(body, 'utf8').digest('hex'),
    'webhook-id': eventId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${standard.digest('base64')}`,
  };
}
