import { verifyWebhookSignature } from '@cts/sdk';
import { Webhook } from 'standardwebhooks';
import { deliveryHeaders, newListenSecret } from './sign-delivery';

describe('cts listen signatures', () => {
  const body = JSON.stringify({ event_id: 'evt_1', event: 'transfer.confirmed', account: '@alice' });

  it('signs as webhook-dispatcher does: the SDK and a Standard Webhooks verifier accept it', () => {
    const secret = newListenSecret();
    const headers = deliveryHeaders(secret, 'evt_1', body, Math.floor(Date.now() / 1000));

    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(verifyWebhookSignature(secret, body, headers)).toBe(true);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(verifyWebhookSignature(newListenSecret(), body, headers)).toBe(false);
    expect(verifyWebhookSignature(secret, `${body} `, headers)).toBe(false);
  });
});
