import { type ProofEngine } from '../proof-engine/proof-engine';
import { type BuildJob, type SignedTransactionPlan } from './build-job';
import { buildApplyPending } from './apply-pending.builder';
import { buildConfidentialTransfer } from './confidential-transfer.builder';
import { buildConfigureAccounts } from './configure-accounts.builder';
import { buildFund } from './fund.builder';
import { buildWithdraw } from './withdraw.builder';
import { buildWithdrawAndPay } from './withdraw-and-pay.builder';

/** The one entry point the proof workers (or the in-thread fallback) run. */
export function buildSignedTransactions(job: BuildJob, engine: ProofEngine): Promise<SignedTransactionPlan> {
  switch (job.kind) {
    case 'configure-accounts':
      return buildConfigureAccounts(job, engine);
    case 'fund':
      return buildFund(job, engine);
    case 'confidential-transfer':
      return buildConfidentialTransfer(job, engine);
    case 'withdraw-and-pay':
      return buildWithdrawAndPay(job, engine);
    case 'withdraw':
      return buildWithdraw(job, engine);
    case 'apply-pending':
      return buildApplyPending(job, engine);
  }
}
