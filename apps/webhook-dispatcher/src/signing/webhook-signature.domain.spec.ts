import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  deliveryHeaders,
  generateWebhookSecret,
  serviceSignature,
  standardSignature,
} from './webhook-signature.domain';

describe('webhook signatures', () => {
  // A fixed secret: base64 of the bytes 0..31.
  const secret = `whsec_${Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString('base64')}`;
  const body = '{"event_id":"evt_1","event":"transfer.confirmed"}';

  it('generates whsec_ + base64 of 32 random bytes, different every time', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(a);
  });

  it('signs X-Service-Signature as hex HMAC-SHA256 of the body keyed with the whole secret string', () => {
    expect(serviceSignature(secret, body)).toBe(createHmac('sha256', secret).update(body).digest('hex'));
    expect(serviceSignature(secret, body)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signs webhook-signature as Standard Webhooks does (v1, base64 over id.timestamp.body, decoded key)', () => {
    const key = Buffer.from(secret.slice(6), 'base64');
    expect(standardSignature(secret, 'evt_1', 1767225600, body)).toBe(
      `v1,${createHmac('sha256', key).update(`evt_1.1767225600.${body}`).digest('base64')}`,
    );
  });

  it('produces headers an off-the-shelf Standard Webhooks verifier accepts', () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = deliveryHeaders({
      secret,
      webhookId: 'evt_1',
      timestampSeconds: now,
      body,
      userAgent: 'cts-webhooks/1',
    });

    expect(headers).toEqual({
      'content-type': 'application/json',
      'user-agent': 'cts-webhooks/1',
      'x-service-signature': serviceSignature(secret, body),
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(now),
      'webhook-signature': standardSignature(secret, 'evt_1', now, body),
    });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('signs with the new and the previous secret after a rotation: Standard Webhooks verifiers accept either', () => {
    const now = Math.floor(Date.now() / 1000);
    const previous = generateWebhookSecret();
    const headers = deliveryHeaders({
      secret,
      alsoSignedWith: [previous],
      webhookId: 'evt_1',
      timestampSeconds: now,
      body,
      userAgent: 'cts-webhooks/1',
    });

    expect(headers['webhook-signature']).toBe(
      `${standardSignature(secret, 'evt_1', now, body)} ${standardSignature(previous, 'evt_1', now, body)}`,
    );
    expect(headers['x-service-signature']).toBe(serviceSignature(secret, body));
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });
});
