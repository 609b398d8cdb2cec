import { type AccountParty, GetBalances } from '@cts/contracts';
import { codeOf, context, TransferHarness } from '../testing/transfer-harness';
import { heldBalance, leaveDecryptableStale } from '../testing/stale-decryptable';

// A credit that raced an apply leaves the decryptable (AE) balance short of the ElGamal one until the
// next apply restates it; a crash before that re-apply leaves it so. The holder (and the SDK) read the
// decryptable balance: a stale one is applied before it is shown. Real PostgreSQL, in-process ledger.
jest.setTimeout(120_000);

const USDC = 1_000_000n;

describe('transfer-service: the balances of an account whose decryptable balance is stale', () => {
  const harness = new TransferHarness();
  let funder: AccountParty;
  let holder: AccountParty;

  beforeAll(async () => {
    await harness.start();
    funder = await harness.openAccount();
    holder = await harness.openAccount();
    await harness.fund(funder, 10n * USDC);
    await harness.fund(holder, 3n * USDC);
    expect(codeOf(await harness.send(funder, holder.handle, USDC))).toBe('ok');
    // The apply of that 1 USDC is raced by 2 more: the copy says 4 USDC, the ledger holds 6.
    await leaveDecryptableStale(harness, holder, funder, 2n * USDC);
  });

  afterAll(() => harness.stop());

  it('restates the decryptable balance before answering: it opens to what the ledger holds', async () => {
    expect(await heldBalance(harness, holder)).toEqual({ decryptable: 4n * USDC, elgamal: 6n * USDC });

    const result = await harness.service.commands.send(
      GetBalances,
      {
        account_id: holder.account_id,
        environment: 'test',
        include_ciphertext: true,
        sealed_decryption_proof: null,
      },
      context,
    );

    if (!result.ok) {
      throw new Error(`balances failed: ${result.error.message}`);
    }
    const usdc = result.value.balances.find((entry) => entry.asset === 'USDC');
    expect(usdc).toMatchObject({ has_balance: true, decryptable_balance: expect.any(String) });
    expect(harness.openAmount(holder, usdc?.decryptable_balance ?? '')).toBe(6n * USDC);
    expect(await heldBalance(harness, holder)).toEqual({ decryptable: 6n * USDC, elgamal: 6n * USDC });
  });
});
