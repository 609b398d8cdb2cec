import { eventually } from '@cts/testing';
import { type StackUnderTest } from './foundation.behaviour';
import { account, fund } from './transfers.behaviour';
import { http } from './http';

const scrape = async (url: string) => (await fetch(`${url}/metrics`)).text();

/**
 * Issue 7's metrics: what an operator scrapes after real traffic, on the gateway's metrics port
 * (issue 14: never on the public API port).
 */
export function metricsBehaviour(
  stack: () => StackUnderTest,
  gatewayMetricsUrl: () => string,
  serviceHealthUrl?: () => string,
): void {
  it('exports Prometheus metrics for HTTP, commands, settlements, the outbox and the proof pool', async () => {
    const [alice, bob] = [await account(stack()), await account(stack())];
    await fund(stack(), alice, '3');
    expect(
      (
        await http(stack().baseUrl, 'POST', '/v1/transfers', {
          token: alice.token,
          body: { to: bob.account.handle, amount: '1' },
        })
      ).status,
    ).toBe(200);
    expect((await fetch(`${stack().baseUrl}/metrics`)).status).toBe(404);
    const gateway = await scrape(gatewayMetricsUrl());
    expect(gateway).toMatch(
      /cts_http_request_duration_seconds_count\{method="POST",route="\/v1\/transfers",status="200"\} [1-9]/,
    );
    expect(gateway).toMatch(
      /cts_command_round_trip_seconds_count\{topic="transfer.create",outcome="ok"\} [1-9]/,
    );
    expect(gateway).not.toMatch(/acct_|tr_[0-9a-z]{10}/);
    const transferService = serviceHealthUrl ? await scrape(serviceHealthUrl()) : gateway;
    expect(transferService).toMatch(
      /cts_transfer_settlement_seconds_count\{asset="USDC",outcome="confirmed"\} [1-9]/,
    );
    expect(transferService).toMatch(/cts_outbox_backlog_events\{service="transfers"\} \d+/);
    expect(transferService).toMatch(/cts_proof_pool_queue_depth \d+/);
    if (serviceHealthUrl) {
      await eventually(
        async () =>
          expect(await scrape(serviceHealthUrl())).toMatch(
            /cts_consumer_lag_messages\{group="transfer-service[^"]*",topic="transfer.commands"\} \d+/,
          ),
        20_000,
        500,
      );
    }
  }, 60_000);
}
