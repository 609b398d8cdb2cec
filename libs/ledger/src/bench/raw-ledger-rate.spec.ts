import { enginesUnderTest } from '../proof-engine/engines-under-test';
import { measureRawLedgerRate } from './raw-ledger-rate';

describe('measureRawLedgerRate', () => {
  it.each(enginesUnderTest())(
    'measures confidential transfers per second from two sources in parallel (%s engine)',
    async (engine) => {
      const rate = await measureRawLedgerRate({ transfers: 4, poolSize: 2, engine });
      expect(rate).toMatchObject({ transfers: 4, sources: 2, poolSize: 2, engine });
      expect(rate.transfersPerSecond).toBeGreaterThan(0);
      expect(rate.meanTransferMs).toBeGreaterThan(0);
      expect(rate.cpuMsPerTransfer).toBeGreaterThan(0);
    },
    60_000,
  );
});
