import { eventually } from '@cts/testing';
import { type StackUnderTest } from './foundation.behaviour';
import { http } from './http';
import { type OtlpCollector } from './otlp-collector';
import { account, fund } from './transfers.behaviour';

/** Issue 7: one trace from the HTTP request through the commands, the services and the ledger. */
export function tracingBehaviour(stack: () => StackUnderTest, collector: () => OtlpCollector): void {
  it('exports one OpenTelemetry trace per request, across gateway, services, ledger and events', async () => {
    const [alice, bob] = [await account(stack()), await account(stack())];
    await fund(stack(), alice, '2');
    const sent = await http(stack().baseUrl, 'POST', '/v1/transfers', {
      token: alice.token,
      body: { to: bob.account.handle, amount: '1' },
    });
    expect(sent.status).toBe(200);
    await eventually(
      () =>
        expect(collector().spans.some((s) => s.name === 'webhook-dispatcher transfer.confirmed')).toBe(true),
      20_000,
      250,
    );
    const root = [...collector().spans].reverse().find((s) => s.name === 'POST /v1/transfers');
    expect(root).toBeDefined();
    const names = collector()
      .spans.filter((s) => s.traceId === root?.traceId)
      .map((s) => s.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /v1/transfers',
        'send transfer.create',
        'transfer-service transfer.create',
        'send account.resolve-recipient',
        'account-service account.resolve-recipient',
        'ledger.settle',
        'webhook-dispatcher transfer.confirmed',
      ]),
    );
    expect(JSON.stringify(collector().spans)).not.toMatch(/svc_(test|live)_/);
  }, 60_000);
}
