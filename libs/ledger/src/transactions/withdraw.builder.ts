import { type ProofEngine } from '../proof-engine/proof-engine';
import { type SignedTransactionPlan, type WithdrawJob } from './build-job';
import { planAndSign } from './plan-signing';
import { openConfidentialSource, withdrawPlan } from './withdraw-and-pay.builder';

/** Withdraw exactly `withdrawAmount` (equality + range proofs) to the owner's own public balance. */
export async function buildWithdraw(job: WithdrawJob, engine: ProofEngine): Promise<SignedTransactionPlan> {
  const { extension, signer, ae, payer } = openConfidentialSource(job);
  const plan = await withdrawPlan(job, extension, { signer, ae, payer }, engine);
  return planAndSign(plan, payer, job.context);
}
