import { type AccountParty } from '@cts/contracts';
import { zk } from '@cts/crypto';
import { Custody } from '@cts/custody';
import { type ConfidentialAccountView } from '@cts/ledger';
import { address } from '@solana/kit';
import { Ledgers } from '../ledger/ledgers';
import { codeOf, type TransferHarness } from './transfer-harness';

const STOPPED = 'the service stopped before it applied again';

/** The account's USDC view on the test ledger. */
export async function usdcView(
  harness: TransferHarness,
  account: AccountParty,
): Promise<ConfidentialAccountView> {
  const ledger = await harness.service.service.app.get(Ledgers).of('test');
  const view = await ledger.readAccount(address(account.address), 'USDC');
  if (!view.confidentialReady) {
    throw new Error(`the USDC account of ${account.account_id} is not confidential-ready`);
  }
  return view;
}

/**
 * The account's available USDC as its key holder reads it: the decryptable (AE) copy, which proofs
 * and custody use, and the ElGamal balance the ledger moves (a discrete log, up to 2³² base units).
 */
export async function heldBalance(
  harness: TransferHarness,
  account: AccountParty,
): Promise<{ decryptable: bigint; elgamal: bigint }> {
  const view = await usdcView(harness, account);
  return harness.service.service.app.get(Custody).withKeys(account.account_id, 'test', (keys) => {
    const decryptable = zk.AeCiphertext.fromBytes(view.decryptableAvailableBalance)?.decrypt(
      zk.AeKey.fromBytes(keys.aeKey),
    );
    const ciphertext = zk.ElGamalCiphertext.fromBytes(view.availableBalanceCiphertext);
    if (decryptable === undefined || ciphertext === undefined) {
      throw new Error('the balance does not decrypt');
    }
    return { decryptable, elgamal: zk.ElGamalSecretKey.fromBytes(keys.elgamalSecret).decrypt(ciphertext) };
  });
}

/**
 * Leaves `account`'s decryptable balance short by `credit`, as a crash (or the adapter's last attempt)
 * after a raced apply does: `sender` pays `account` `credit` once an apply of its pending balance has
 * read it and is signed but not sent, and the service stops before the re-apply that would restate it.
 * `account` must have a pending credit (or the apply is skipped).
 */
export async function leaveDecryptableStale(
  harness: TransferHarness,
  account: AccountParty,
  sender: AccountParty,
  credit: bigint,
): Promise<void> {
  const app = harness.service.service.app;
  const ledgers = app.get(Ledgers);
  const ledger = await ledgers.of('test');
  const { tokenAccount } = await usdcView(harness, account);
  // The proof pool the service's ledgers build with, read past `private` (nothing else needs it).
  // Between a job's preparation (its read) and the send after its build, a credit races an apply.
  const pool = ledgers['pool'];
  if (pool === null) {
    throw new Error('the ledgers have no proof pool yet');
  }
  const run = pool.run.bind(pool);
  let raced = false;
  const spy = jest.spyOn(pool, 'run').mockImplementation(async (prepare) => {
    let racing = false;
    const plan = await run(async () => {
      const job = await prepare();
      if (job.kind === 'apply-pending' && job.token === tokenAccount) {
        if (raced) {
          throw new Error(STOPPED);
        }
        racing = true;
      }
      return job;
    });
    if (racing) {
      const paid = await harness.send(sender, account.handle, credit);
      if (!paid.ok) {
        throw new Error(`the racing credit failed: ${codeOf(paid)}`);
      }
      raced = true;
    }
    return plan;
  });
  try {
    await app
      .get(Custody)
      .withKeys(account.account_id, 'test', (keys) => ledger.applyPendingBalance(keys, 'USDC'));
  } catch (error) {
    if (!(error instanceof Error && error.message.includes(STOPPED))) {
      throw error;
    }
  } finally {
    spy.mockRestore();
  }
  if (!raced || !(await usdcView(harness, account)).decryptableStale) {
    throw new Error(`the decryptable balance of ${account.account_id} is not stale`);
  }
}
