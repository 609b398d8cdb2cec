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
    const sentAt = Date.now();
    const sent = await http(stack().baseUrl, 'POST', '/v1/transfers', {
      token: alice.token,
      body: { to: bob.account.handle, amount: '1' },
    });
    expect(sent.status).toBe(200);
    // This request's root span is the one that started after it was sent (with a few ms for the two
    // processes' clocks). Spans of earlier requests can still be arriving when it is sent, under load
    // a trace's early spans before it and its root after, so the root is chosen by time, not arrival.
    const traceOfThisRequest = (): string[] => {
      const spans = collector().spans;
      const root = spans.find((s) => s.name === 'POST /v1/transfers' && s.startMs >= sentAt - 50);
      return root ? spans.filter((s) => s.traceId === root.traceId).map((s) => s.name) : [];
    };
    await eventually(
      () =>
        expect(traceOfThisRequest()).toEqual(
          expect.arrayContaining([
            'POST /v1/transfers',
            'send transfer.create',
            'transfer-service transfer.create',
            'send account.resolve-recipient',
            'account-service account.resolve-recipient',
            'ledger.settle',
            'webhook-dispatcher transfer.confirmed',
          ]),
        ),
      20_000,
      250,
    );
    expect(JSON.stringify(collector().spans)).not.toMatch(/svc_(test|live)_/);
  }, 60_000);
}
