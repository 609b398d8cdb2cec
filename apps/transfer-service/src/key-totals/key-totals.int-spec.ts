import { type AccountParty } from '@cts/contracts';
import { codeOf, TransferHarness } from '../testing/transfer-harness';

// Spec §5.5: each API key's "total USDC transferred", an AE ciphertext only the account opens.
jest.setTimeout(120_000);

const USDC = 1_000_000n;

describe('transfer-service: per-key totals', () => {
  const harness = new TransferHarness();
  let alice: AccountParty;
  let bob: AccountParty;

  const totalOf = async (keyId: string): Promise<string | undefined> => {
    const [row] = await harness.service.query<{ encrypted_usdc_total: string }>(
      `SELECT encrypted_usdc_total FROM transfers.api_key_totals WHERE key_id = $1`,
      [keyId],
    );
    return row?.encrypted_usdc_total;
  };
  const send = async (keyId: string, amount: bigint) =>
    expect(codeOf(await harness.send(alice, bob.handle, amount, { api_key_id: keyId }))).toBe('ok');

  beforeAll(async () => {
    await harness.start();
    alice = await harness.openAccount();
    bob = await harness.openAccount();
    await harness.fund(alice, 100n * USDC);
  });

  afterAll(() => harness.stop());

  it('adds every confirmed transfer of a key exactly, the first and the ones after it', async () => {
    await send('key_totals_a', 1_500_000n);
    await send('key_totals_a', 250_000n);
    await send('key_totals_a', 7n);
    await send('key_totals_b', 3n * USDC);

    expect(harness.openAmount(alice, (await totalOf('key_totals_a')) ?? '')).toBe(1_750_007n);
    expect(harness.openAmount(alice, (await totalOf('key_totals_b')) ?? '')).toBe(3n * USDC);
  });

  it('adds to the stored total, not to the one this replica wrote last, when another writer changed it', async () => {
    await send('key_totals_c', 1n * USDC);
    const afterFirst = await totalOf('key_totals_c');
    await send('key_totals_c', 2n * USDC);
    // Another writer (a replica, the reconciler) leaves the total at what it was after the first.
    await harness.service.query(
      `UPDATE transfers.api_key_totals SET encrypted_usdc_total = $1 WHERE key_id = $2`,
      [afterFirst, 'key_totals_c'],
    );

    await send('key_totals_c', 4n * USDC);

    expect(harness.openAmount(alice, (await totalOf('key_totals_c')) ?? '')).toBe(5n * USDC);
    const confirmed = await harness.service.query(
      `SELECT o.id FROM transfers.outbox o JOIN transfers.transfers t ON t.id = o.key
       WHERE o.envelope->>'type' = 'transfer.confirmed' AND t.sender_account_id = $1`,
      [alice.account_id],
    );
    expect(confirmed).toHaveLength(7);
  });
});
