import { confidentialExtensionOf } from '../accounts/token-state';
import { openAccountKeys, signerFromSeed } from '../keys/account-keys';
import { LedgerError } from '../ledger.errors';
import { assertCovers, decryptAvailable } from './balance-decryption';
import { type ConfidentialTransferJob, type SignedTransactionPlan } from './build-job';
import { getConfidentialTransferInstructionPlan } from './confidential-helpers';
import { planAndSign, rentOnlyRpc } from './plan-signing';

/** Equality, ciphertext-validity and range proofs (the CPU cost) and the transfer, about 5 transactions. */
export async function buildConfidentialTransfer(
  job: ConfidentialTransferJob,
): Promise<SignedTransactionPlan> {
  const extension = confidentialExtensionOf(job.sourceState);
  if (extension === null) {
    throw new LedgerError(
      'account_not_confidential',
      'the source account is not configured for confidential transfers',
    );
  }
  const { signer, elgamal, ae } = await openAccountKeys(job.keys);
  assertCovers(decryptAvailable(extension, ae), job.amount);
  const payer = await signerFromSeed(job.context.feePayerSeed);
  const plan = await getConfidentialTransferInstructionPlan({
    sourceToken: job.source,
    mint: job.mint,
    mintAccount: job.mintState,
    destinationToken: job.destination,
    sourceTokenAccount: job.sourceState,
    destinationTokenAccount: job.destinationState,
    authority: signer,
    amount: job.amount,
    sourceElgamalKeypair: elgamal,
    aesKey: ae,
    payer,
    rpc: rentOnlyRpc(job.context.rent),
  });
  return planAndSign(plan, payer, job.context);
}
