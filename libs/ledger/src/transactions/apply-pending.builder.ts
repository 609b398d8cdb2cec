import { openAccountKeys, signerFromSeed } from '../keys/account-keys';
import { type ApplyPendingJob, type SignedTransactionPlan } from './build-job';
import { getApplyConfidentialPendingBalanceInstructionFromToken } from './confidential-helpers';
import { planAndSign } from './plan-signing';

/** Decrypts the pending balance (two ElGamal discrete logs: the costly part) and applies it. */
export async function buildApplyPending(job: ApplyPendingJob): Promise<SignedTransactionPlan> {
  const { signer, elgamal, ae } = await openAccountKeys(job.keys);
  const payer = await signerFromSeed(job.context.feePayerSeed);
  const instruction = getApplyConfidentialPendingBalanceInstructionFromToken({
    token: job.token,
    tokenAccount: job.tokenState,
    authority: signer,
    elgamalSecretKey: elgamal.secret(),
    aesKey: ae,
  });
  return planAndSign([instruction], payer, job.context);
}
