import { type AccountParty } from '@cts/contracts';
import { codeOf, TransferHarness } from '../testing/transfer-harness';

// transfer-service on real PostgreSQL and its in-process ledgers; its peers are fakes (spec §4.1).
jest.setTimeout(120_000);

const USDC = 1_000_000n;
const AMOUNT = 4_321_987n; // distinctive: must never appear in a row or an event

describe('transfer-service: creating a transfer', () => {
  const harness = new TransferHarness();
  let alice: AccountParty;
  let bob: AccountParty;

  beforeAll(async () => {
    await harness.start();
    alice = await harness.openAccount();
    bob = await harness.openAccount();
    await harness.fund(alice, 100n * USDC);
  });

  afterAll(() => harness.stop());

  it('settles a confidential transfer on the ledger: confirmed with a signature, initiated then confirmed events', async () => {
    const result = await harness.send(alice, bob.handle, AMOUNT);

    if (!result.ok || result.value.kind !== 'transfer') {
      throw new Error(`expected a transfer, got ${JSON.stringify(result)}`);
    }
    const { transfer } = result.value;
    expect(transfer).toMatchObject({
      status: 'confirmed',
      direction: 'sent',
      from: alice.handle,
      to: bob.handle,
      confidential: true,
    });
    expect(transfer.chain_signature).toEqual(expect.any(String));
    expect(await harness.row(transfer.transfer_id)).toMatchObject({
      status: 'confirmed',
      chain_signature: transfer.chain_signature,
    });
    expect(await harness.eventsOf(transfer.transfer_id)).toEqual([
      'transfer.initiated',
      'transfer.confirmed',
    ]);
  });

  it('keeps the plaintext amount out of every row and every event of a confidential transfer', async () => {
    const result = await harness.send(alice, bob.handle, AMOUNT);
    expect(codeOf(result)).toBe('ok');
    const rows = JSON.stringify(await harness.service.query(`SELECT * FROM transfers.transfers`));
    const outbox = JSON.stringify(await harness.service.query(`SELECT * FROM transfers.outbox`));
    for (const text of [rows, outbox]) {
      expect(text).not.toContain('4.321987');
      expect(text).not.toContain('4321987');
    }
  });

  it('puts the amount of a standard transfer in its events, where the ledger shows it anyway', async () => {
    await harness.fund(alice, 0n + 10n * USDC);
    const result = await harness.send(alice, bob.handle, 2_500_000n, { confidential: false });
    if (!result.ok || result.value.kind !== 'transfer') {
      throw new Error(`expected a transfer, got ${JSON.stringify(result)}`);
    }
    const [event] = await harness.service.query<{ payload: { amount?: string; confidential: boolean } }>(
      `SELECT envelope->'payload' AS payload FROM transfers.outbox WHERE key = $1 AND envelope->>'type' = 'transfer.confirmed'`,
      [result.value.transfer.transfer_id],
    );
    expect(event?.payload).toMatchObject({ amount: '2.5', confidential: false });
  });

  it('answers a retried request with the same idempotency key with the first transfer, recording one', async () => {
    const first = await harness.send(alice, bob.handle, USDC, { idempotency_key: 'client:idem-1' });
    const again = await harness.send(alice, bob.handle, USDC, { idempotency_key: 'client:idem-1' });

    expect(first.ok && again.ok).toBe(true);
    if (first.ok && again.ok && first.value.kind === 'transfer' && again.value.kind === 'transfer') {
      expect(again.value.transfer.transfer_id).toBe(first.value.transfer.transfer_id);
      const rows = await harness.service.query(
        `SELECT id FROM transfers.transfers WHERE idempotency_key = 'client:idem-1'`,
      );
      expect(rows).toHaveLength(1);
    }
  });

  it('sends nothing while its record cannot be written (the proof is built meanwhile): the money moves once, later', async () => {
    const carol = await harness.openAccount();
    await harness.fund(carol, 2n * USDC);
    await harness.service.query(`
      CREATE FUNCTION transfers.refuse_carol() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the record is refused'; END $$;
      CREATE TRIGGER refuse_carol BEFORE INSERT ON transfers.transfers FOR EACH ROW
        WHEN (NEW.sender_account_id = '${carol.account_id}') EXECUTE FUNCTION transfers.refuse_carol();`);
    let refused;
    try {
      refused = await harness.send(carol, bob.handle, 2n * USDC);
    } finally {
      await harness.service.query(
        `DROP TRIGGER refuse_carol ON transfers.transfers; DROP FUNCTION transfers.refuse_carol();`,
      );
    }

    expect(refused.ok).toBe(false);
    expect(await harness.rowsOf(carol)).toEqual([]);
    // All of it is still there: had the first attempt sent, this one would find nothing to send.
    const again = await harness.send(carol, bob.handle, 2n * USDC);
    expect(again.ok && again.value.kind === 'transfer' && again.value.transfer.status).toBe('confirmed');
    expect(await harness.rowsOf(carol)).toHaveLength(1);
  });

  it('refuses more than the sender holds with insufficient_balance and records nothing', async () => {
    const poor = await harness.openAccount();
    await harness.fund(poor, USDC);

    const result = await harness.send(poor, bob.handle, 2n * USDC);

    expect(codeOf(result)).toBe('insufficient_balance');
    expect(await harness.rowsOf(poor)).toEqual([]);
  });

  it('sends on what it received: the pending balance is applied (decrypted by the proof engine) first', async () => {
    const carol = await harness.openAccount();
    const dave = await harness.openAccount();
    expect(codeOf(await harness.send(alice, carol.handle, 3n * USDC + 17n))).toBe('ok');
    expect(codeOf(await harness.send(alice, carol.handle, 2n * USDC))).toBe('ok');

    // Carol's available balance is zero: both credits sit in her pending balance until applied.
    const result = await harness.send(carol, dave.handle, 5n * USDC + 17n);

    expect(codeOf(result)).toBe('ok');
    expect(codeOf(await harness.send(carol, dave.handle, 1n))).toBe('insufficient_balance');
  });

  it('refuses a transfer to the sender itself, by handle or by its own address', async () => {
    expect(codeOf(await harness.send(alice, alice.handle, USDC))).toBe('invalid_request');
    expect(codeOf(await harness.send(alice, alice.address, USDC))).toBe('invalid_request');
  });

  it('refuses a zero amount and one above what a confidential transfer can prove', async () => {
    const zero = await harness.send(alice, bob.handle, 0n);
    const huge = await harness.send(alice, bob.handle, 1n << 48n);
    for (const result of [zero, huge]) {
      expect(result.ok || { code: result.error.code, param: result.error.param }).toEqual({
        code: 'invalid_request',
        param: 'amount',
      });
    }
  });

  it('refuses a sender without KYC before anything is recorded', async () => {
    const unverified = await harness.openAccount({ kyc: 'unverified' });
    await harness.fund(unverified, USDC);

    expect(codeOf(await harness.send(unverified, bob.handle, 1n))).toBe('kyc_required');
    expect(await harness.rowsOf(unverified)).toEqual([]);
  });

  it('refuses a confidential transfer to an outside address without a confidential balance, naming the way out', async () => {
    const outside = 'So11111111111111111111111111111111111111112';
    const result = await harness.send(alice, outside, USDC);
    expect(result.ok || { code: result.error.code, param: result.error.param }).toEqual({
      code: 'recipient_not_confidential_ready',
      param: 'to',
    });
  });
});
