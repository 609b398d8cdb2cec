import { TransferHarness } from '../testing/transfer-harness';

describe('transfer-service readiness', () => {
  const harness = new TransferHarness();

  beforeAll(() => harness.start(), 60_000);
  afterAll(() => harness.stop());

  it('checks its database and its ledgers, for its own /readyz and the one-process gateway', async () => {
    const probes = harness.service.runtime.sharedProbes ?? [];
    expect(probes.map((probe) => probe.name).sort()).toEqual(['database', 'ledger']);
    for (const probe of probes) {
      await expect(probe.check()).resolves.toBe(true);
    }
  });

  it('withdraws them when it stops, so a process without it does not report a closed pool', async () => {
    const second = new TransferHarness();
    await second.start();
    const probes = second.service.runtime.sharedProbes ?? [];
    expect(probes).toHaveLength(2);
    await second.stop();
    expect(probes).toHaveLength(0);
  }, 60_000);
});
