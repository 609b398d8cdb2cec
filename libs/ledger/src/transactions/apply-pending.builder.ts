import { zk } from '@cts/crypto';
import { type Instruction } from '@solana/kit';
import {
  getApplyConfidentialPendingBalanceInstruction,
  getConfidentialDepositInstruction,
} from '@solana-program/token-2022';
import { confidentialExtensionOf } from '../accounts/token-state';
import { openAccountKeys } from '../keys/account-keys';
import { operatorSigner } from '../keys/seed-signer';
import { LedgerError } from '../ledger.errors';
import { type ProofEngine } from '../proof-engine/proof-engine';
import { decryptAvailableForApply, decryptPending } from './balance-decryption';
import { type ApplyPendingJob, type SignedTransactionPlan } from './build-job';
import { planAndSign } from './plan-signing';

/**
 * Decrypts the pending balance (two ElGamal discrete logs: the costly part, done by the proof
 * engine so the native one does it natively) and applies it, as token-2022's
 * getApplyConfidentialPendingBalanceInstructionFromToken does. A public amount to deposit goes in
 * first, in the same transaction, so it cannot be left stranded in pending.
 */
export async function buildApplyPending(
  job: ApplyPendingJob,
  engine: ProofEngine,
): Promise<SignedTransactionPlan> {
  const extension = confidentialExtensionOf(job.tokenState);
  if (extension === null) {
    throw new LedgerError(
      'account_not_confidential',
      'the account is not configured for confidential transfers',
    );
  }
  const { signer, ae } = openAccountKeys(job.keys);
  const payer = operatorSigner(job.context.feePayerSeed);
  const newAvailable =
    decryptAvailableForApply(extension, ae, job.keys.elgamalSecret, engine) +
    decryptPending(extension, job.keys.elgamalSecret, engine) +
    job.depositAmount;
  const instructions: Instruction[] = [];
  if (job.depositAmount > 0n) {
    instructions.push(
      getConfidentialDepositInstruction({
        token: job.token,
        mint: job.mint,
        authority: signer,
        amount: job.depositAmount,
        decimals: job.decimals,
      }),
    );
  }
  instructions.push(
    getApplyConfidentialPendingBalanceInstruction({
      token: job.token,
      authority: signer,
      // A deposit above is one more pending credit.
      expectedPendingBalanceCreditCounter:
        extension.pendingBalanceCreditCounter + (job.depositAmount > 0n ? 1n : 0n),
      newDecryptableAvailableBalance: zk.AeKey.fromBytes(job.keys.aeKey).encrypt(newAvailable).toBytes(),
    }),
  );
  return planAndSign(instructions, payer, job.context);
}
