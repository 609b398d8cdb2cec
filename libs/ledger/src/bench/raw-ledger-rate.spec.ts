import { measureRawLedgerRate } from './raw-ledger-rate';

describe('measureRawLedgerRate', () => {
  it('measures confidential transfers per second from two sources in parallel', async () => {
    const rate = await measureRawLedgerRate({ transfers: 4, poolSize: 2 });
    expect(rate).toMatchObject({ transfers: 4, sources: 2, poolSize: 2 });
    expect(rate.transfersPerSecond).toBeGreaterThan(0);
    expect(rate.meanTransferMs).toBeGreaterThan(0);
  });
});
