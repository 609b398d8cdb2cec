import { confidentialExtensionOf } from '../accounts/token-state';
import { openAccountKeys, signerFromSeed } from '../keys/account-keys';
import { LedgerError } from '../ledger.errors';
import { type ProofEngine } from '../proof-engine/proof-engine';
import { type SignedTransactionPlan, type WithdrawJob } from './build-job';
import { planAndSign } from './plan-signing';
import { withdrawPlan } from './withdraw-and-pay.builder';

/** Withdraw exactly `withdrawAmount` (equality + range proofs) to the owner's own public balance. */
export async function buildWithdraw(job: WithdrawJob, engine: ProofEngine): Promise<SignedTransactionPlan> {
  const extension = confidentialExtensionOf(job.sourceState);
  if (extension === null) {
    throw new LedgerError(
      'account_not_confidential',
      'the source account is not configured for confidential transfers',
    );
  }
  const { signer, ae } = await openAccountKeys(job.keys);
  const payer = await signerFromSeed(job.context.feePayerSeed);
  const plan = await withdrawPlan(job, extension, { signer, ae, payer }, engine);
  return planAndSign(plan, payer, job.context);
}
