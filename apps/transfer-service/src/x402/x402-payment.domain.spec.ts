import { spendablePublic } from './x402-payment.domain';

describe('spendablePublic', () => {
  it('leaves out what signed, unsettled payments were promised', () => {
    expect(spendablePublic(450_000n, 300_000n)).toBe(150_000n);
  });

  it('is zero when the promises take all of the public balance or more', () => {
    expect(spendablePublic(150_000n, 150_000n)).toBe(0n);
    // A payment that landed unreported is still counted as promised: never below zero.
    expect(spendablePublic(0n, 150_000n)).toBe(0n);
  });

  it('is the whole public balance when nothing is promised', () => {
    expect(spendablePublic(1_250_000n, 0n)).toBe(1_250_000n);
  });
});
