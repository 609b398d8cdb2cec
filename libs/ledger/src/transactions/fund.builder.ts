import { zk } from '@cts/crypto';
import {
  getApplyConfidentialPendingBalanceInstruction,
  getConfidentialDepositInstruction,
  getMintToInstruction,
} from '@solana-program/token-2022';
import { confidentialExtensionOf } from '../accounts/token-state';
import { openAccountKeys } from '../keys/account-keys';
import { operatorSigner } from '../keys/seed-signer';
import { LedgerError } from '../ledger.errors';
import { type ProofEngine } from '../proof-engine/proof-engine';
import { decryptAvailableForApply, decryptPending } from './balance-decryption';
import { type FundJob, type SignedTransactionPlan } from './build-job';
import { planAndSign } from './plan-signing';

/**
 * MintTo + Deposit + ApplyPendingBalance in ONE transaction: either the funds land in the available
 * balance or nothing happens, so a retry after a crash never leaves them stranded in pending.
 */
export async function buildFund(job: FundJob, engine: ProofEngine): Promise<SignedTransactionPlan> {
  const extension = confidentialExtensionOf(job.tokenState);
  if (extension === null) {
    throw new LedgerError(
      'account_not_confidential',
      'the account is not configured for confidential transfers',
    );
  }
  const { signer, ae } = openAccountKeys(job.keys);
  const payer = operatorSigner(job.context.feePayerSeed);
  const mintAuthority = operatorSigner(job.mintAuthoritySeed);
  const newAvailable =
    decryptAvailableForApply(extension, ae, job.keys.elgamalSecret, engine) +
    decryptPending(extension, job.keys.elgamalSecret, engine) +
    job.amount;
  const instructions = [
    getMintToInstruction({ mint: job.mint, token: job.token, mintAuthority, amount: job.amount }),
    getConfidentialDepositInstruction({
      token: job.token,
      mint: job.mint,
      authority: signer,
      amount: job.amount,
      decimals: job.decimals,
    }),
    getApplyConfidentialPendingBalanceInstruction({
      token: job.token,
      authority: signer,
      // The deposit above is one more pending credit.
      expectedPendingBalanceCreditCounter: extension.pendingBalanceCreditCounter + 1n,
      newDecryptableAvailableBalance: zk.AeKey.fromBytes(job.keys.aeKey).encrypt(newAvailable).toBytes(),
    }),
  ];
  return planAndSign(instructions, payer, job.context);
}
