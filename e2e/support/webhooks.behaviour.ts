import { eventually, type HttpsReceiver } from '@cts/testing';
import { verifyWebhookSignature } from '@cts/sdk';
import { http } from './http';
import { type StackUnderTest } from './foundation.behaviour';
import { account, fund } from './transfers.behaviour';

interface Delivery {
  event_id: string;
  status: string;
  response_status_code: number | null;
}

/** Issue 6 with real events: transfers fan out to signed HTTPS deliveries of every party. */
export function webhooksBehaviour(stack: () => StackUnderTest, receiver: () => HttpsReceiver): void {
  it('delivers signed transfer events to sender and recipient, logs them, replays and stops on delete', async () => {
    const [alice, bob] = [await account(stack()), await account(stack())];
    const subscribe = async (token: string, path: string, events: string[]) => {
      const created = await http(stack().baseUrl, 'POST', '/v1/webhooks', {
        token,
        body: { url: receiver().url(path), events },
      });
      expect(created.status).toBe(201);
      return created.body as { webhook_id: string; secret: string };
    };
    const alicePath = `/alice-${alice.account.account_id}`;
    const bobPath = `/bob-${bob.account.account_id}`;
    const aliceHook = await subscribe(alice.token, alicePath, ['transfer.initiated', 'transfer.confirmed']);
    const bobHook = await subscribe(bob.token, bobPath, ['transfer.confirmed']);
    expect(aliceHook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await http(stack().baseUrl, 'GET', '/v1/webhooks', { token: alice.token });
    expect(JSON.stringify(listed.body)).not.toContain(aliceHook.secret);

    await fund(stack(), alice, '10');
    // Six decimals: no timestamp or id in a body can contain it by chance ("…:02.5…" once did).
    const amount = '2.517293';
    const sent = await http(stack().baseUrl, 'POST', '/v1/transfers', {
      token: alice.token,
      body: { to: bob.account.handle, amount },
    });
    const transferId = (sent.body as { transfer_id: string }).transfer_id;

    await eventually(() => expect(receiver().received(alicePath)).toHaveLength(2), 30_000, 200);
    await eventually(() => expect(receiver().received(bobPath)).toHaveLength(1), 30_000, 200);
    const toAlice = receiver()
      .received(alicePath)
      .map((r) => ({ ...r, payload: JSON.parse(r.body) as Record<string, unknown> }));
    expect(toAlice.map((r) => r.payload.event).sort()).toEqual(['transfer.confirmed', 'transfer.initiated']);
    const [toBob] = receiver().received(bobPath);
    expect(JSON.parse(toBob?.body ?? '{}')).toMatchObject({
      event: 'transfer.confirmed',
      account: bob.account.handle,
      direction: 'received',
      counterparty: alice.account.handle,
      transfer_id: transferId,
      asset: 'USDC',
      confidential: true,
    });
    for (const request of [...toAlice, toBob]) {
      expect(request?.body).not.toContain(amount);
      expect(request?.body).not.toContain('2517293');
      expect(request?.headers['content-type']).toContain('application/json');
    }
    expect(verifyWebhookSignature(aliceHook.secret, toAlice[0]?.body ?? '', toAlice[0]?.headers ?? {})).toBe(
      true,
    );
    expect(verifyWebhookSignature(bobHook.secret, toBob?.body ?? '', toBob?.headers ?? {})).toBe(true);
    expect(verifyWebhookSignature(aliceHook.secret, toBob?.body ?? '', toBob?.headers ?? {})).toBe(false);

    const log = await http(stack().baseUrl, 'GET', `/v1/webhooks/${bobHook.webhook_id}/deliveries`, {
      token: bob.token,
    });
    const [delivery] = (log.body as { deliveries: Delivery[] }).deliveries;
    expect(delivery).toMatchObject({ status: 'succeeded', response_status_code: 204 });
    const replay = await http(
      stack().baseUrl,
      'POST',
      `/v1/webhooks/${bobHook.webhook_id}/replay/${delivery?.event_id ?? ''}`,
      { token: bob.token },
    );
    expect(replay.status).toBe(202);
    await eventually(() => expect(receiver().received(bobPath)).toHaveLength(2), 30_000, 200);
    expect(receiver().received(bobPath)[1]?.headers['webhook-id']).toBe(toBob?.headers['webhook-id']);
    expect(
      (
        await http(
          stack().baseUrl,
          'POST',
          `/v1/webhooks/${bobHook.webhook_id}/replay/${delivery?.event_id ?? ''}`,
          { token: alice.token },
        )
      ).status,
    ).toBe(404);

    expect(
      (await http(stack().baseUrl, 'DELETE', `/v1/webhooks/${aliceHook.webhook_id}`, { token: alice.token }))
        .status,
    ).toBe(204);
    await http(stack().baseUrl, 'POST', '/v1/transfers', {
      token: alice.token,
      body: { to: bob.account.handle, amount: '1' },
    });
    await eventually(() => expect(receiver().received(bobPath)).toHaveLength(3), 30_000, 200);
    expect(receiver().received(alicePath)).toHaveLength(2);
  }, 90_000);
}
