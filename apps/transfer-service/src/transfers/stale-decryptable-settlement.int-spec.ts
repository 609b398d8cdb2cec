import { type AccountParty } from '@cts/contracts';
import { codeOf, TransferHarness } from '../testing/transfer-harness';
import { heldBalance, leaveDecryptableStale } from '../testing/stale-decryptable';

// A credit that raced an apply leaves the sender's decryptable (AE) balance short of its ElGamal one
// until the next apply restates it; a crash before that re-apply leaves it so. Settlement applies such
// a sender first: a proof against the short copy fails on the ledger. Real PostgreSQL, in-process ledger.
jest.setTimeout(120_000);

const USDC = 1_000_000n;

describe('transfer-service: settling from an account whose decryptable balance is stale', () => {
  const harness = new TransferHarness();
  let funder: AccountParty;
  let sender: AccountParty;
  let recipient: AccountParty;

  beforeAll(async () => {
    await harness.start();
    funder = await harness.openAccount();
    sender = await harness.openAccount();
    recipient = await harness.openAccount();
    await harness.fund(funder, 10n * USDC);
    await harness.fund(sender, 3n * USDC);
    expect(codeOf(await harness.send(funder, sender.handle, USDC))).toBe('ok');
    // The apply of that 1 USDC is raced by 2 more: the copy says 4 USDC, the ledger holds 6.
    await leaveDecryptableStale(harness, sender, funder, 2n * USDC);
  });

  afterAll(() => harness.stop());

  it('applies the stale sender first, then settles against the restated balance, to the base unit', async () => {
    expect(await heldBalance(harness, sender)).toEqual({ decryptable: 4n * USDC, elgamal: 6n * USDC });

    // Within what the stale copy claims: trusted as it stood, its proof would fail on the ledger.
    const result = await harness.send(sender, recipient.handle, 4n * USDC);

    expect(codeOf(result)).toBe('ok');
    expect(result.ok && result.value.kind === 'transfer' && result.value.transfer.status).toBe('confirmed');
    expect(await heldBalance(harness, sender)).toEqual({ decryptable: 2n * USDC, elgamal: 2n * USDC });
    expect(codeOf(await harness.send(sender, recipient.handle, 2n * USDC))).toBe('ok');
    expect(codeOf(await harness.send(sender, recipient.handle, 1n))).toBe('insufficient_balance');
    expect(await heldBalance(harness, sender)).toEqual({ decryptable: 0n, elgamal: 0n });
    // The recipient received exactly 6 USDC: all of it can be sent on, and no more.
    expect(codeOf(await harness.send(recipient, funder.handle, 6n * USDC))).toBe('ok');
    expect(codeOf(await harness.send(recipient, funder.handle, 1n))).toBe('insufficient_balance');
    expect(await heldBalance(harness, recipient)).toEqual({ decryptable: 0n, elgamal: 0n });
  });
});
