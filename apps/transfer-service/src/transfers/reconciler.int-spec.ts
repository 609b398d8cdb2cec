import { type AccountParty } from '@cts/contracts';
import { getBase58Decoder } from '@solana/kit';
import { randomBytes } from 'node:crypto';
import { TransferHarness } from '../testing/transfer-harness';
import { Reconciler } from './reconciler';

// A crash leaves a transfer `pending`; the sweep finishes it from what the ledger says (reconcileOutcome).
jest.setTimeout(120_000);

const USDC = 1_000_000n;
const STALE_AFTER_MS = 60_000;
const GIVE_UP_MS = 600_000;

describe('transfer-service: reconciling pending transfers', () => {
  const harness = new TransferHarness();
  let alice: AccountParty;
  let bob: AccountParty;

  beforeAll(async () => {
    await harness.start({
      RECONCILE_AFTER_MS: String(STALE_AFTER_MS),
      RECONCILE_GIVE_UP_MS: String(GIVE_UP_MS),
    });
    alice = await harness.openAccount();
    bob = await harness.openAccount();
    await harness.fund(alice, 10n * USDC);
  });

  afterAll(() => harness.stop());

  /** A settled transfer put back as a crash at some point would have left it, last touched `ageMs` ago. */
  async function crashedTransfer(
    signature: { kept: true } | { set: string | null },
    ageMs: number,
  ): Promise<string> {
    const result = await harness.send(alice, bob.handle, USDC);
    if (!result.ok || result.value.kind !== 'transfer') {
      throw new Error(`expected a transfer, got ${JSON.stringify(result)}`);
    }
    const id = result.value.transfer.transfer_id;
    await harness.service.query(
      `UPDATE transfers.transfers SET status = 'pending', confirmed_at = NULL,
         chain_signature = CASE WHEN $2 THEN chain_signature ELSE $4 END,
         updated_at = now() - make_interval(secs => $3::float / 1000) WHERE id = $1`,
      [id, 'kept' in signature, ageMs, 'set' in signature ? signature.set : null],
    );
    await harness.service.query(
      `DELETE FROM transfers.outbox WHERE key = $1 AND envelope->>'type' = 'transfer.confirmed'`,
      [id],
    );
    return id;
  }

  const sweep = () => harness.service.service.app.get(Reconciler).sweep();

  it('confirms a stale transfer whose signature the ledger confirmed, and announces it', async () => {
    const id = await crashedTransfer({ kept: true }, STALE_AFTER_MS * 2);
    await sweep();
    expect(await harness.row(id)).toMatchObject({ status: 'confirmed', failure_reason: null });
    expect(await harness.eventsOf(id)).toEqual(['transfer.initiated', 'transfer.confirmed']);
  });

  it('fails a stale transfer that was never signed (nothing was sent) as settlement_interrupted', async () => {
    const id = await crashedTransfer({ set: null }, STALE_AFTER_MS * 2);
    await sweep();
    expect(await harness.row(id)).toMatchObject({
      status: 'failed',
      failure_reason: 'settlement_interrupted',
      chain_signature: null,
    });
    expect(await harness.eventsOf(id)).toEqual(['transfer.initiated', 'transfer.failed']);
  });

  it('leaves a signed transfer the ledger does not know pending until it can no longer land, then fails it', async () => {
    const unknown = getBase58Decoder().decode(randomBytes(64));
    const id = await crashedTransfer({ set: unknown }, STALE_AFTER_MS * 2);
    await sweep();
    expect(await harness.row(id)).toMatchObject({ status: 'pending', chain_signature: unknown });

    await harness.service.query(
      `UPDATE transfers.transfers SET updated_at = now() - interval '1 hour' WHERE id = $1`,
      [id],
    );
    await sweep();
    expect(await harness.row(id)).toMatchObject({
      status: 'failed',
      failure_reason: 'settlement_interrupted',
      chain_signature: null,
    });
  });

  it('leaves a transfer alone while it is younger than the reconcile delay (a settlement may be in flight)', async () => {
    const id = await crashedTransfer({ set: null }, 0);
    await sweep();
    expect(await harness.row(id)).toMatchObject({ status: 'pending' });
  });
});
