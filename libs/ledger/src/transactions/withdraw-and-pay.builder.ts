import {
  TOKEN_2022_PROGRAM_ADDRESS,
  getConfidentialWithdrawInstruction,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token-2022';
import {
  verifyBatchedRangeProofU64,
  verifyCiphertextCommitmentEquality,
} from '@solana-program/zk-elgamal-proof';
import { randomUUID } from 'node:crypto';
import {
  type Instruction,
  type InstructionPlan,
  type TransactionSigner,
  address,
  parallelInstructionPlan,
  sequentialInstructionPlan,
} from '@solana/kit';
import { type ConfidentialAccountExtension, confidentialExtensionOf } from '../accounts/token-state';
import { type AeKey, openAccountKeys } from '../keys/account-keys';
import { operatorSigner } from '../keys/seed-signer';
import { LedgerError } from '../ledger.errors';
import { type ProofEngine } from '../proof-engine/proof-engine';
import { assertCovers, decryptAvailable } from './balance-decryption';
import { type SignedTransactionPlan, type WithdrawAndPayJob } from './build-job';
import { contextStateProof } from './context-state-proof';
import { planAndSign, rentOnlyRpc } from './plan-signing';

/** The source's confidential extension, its owner's signer and AE key, and the fee payer. */
export function openConfidentialSource(job: Pick<WithdrawAndPayJob, 'sourceState' | 'keys' | 'context'>) {
  const extension = confidentialExtensionOf(job.sourceState);
  if (extension === null) {
    throw new LedgerError(
      'account_not_confidential',
      'the source account is not configured for confidential transfers',
    );
  }
  const { signer, ae } = openAccountKeys(job.keys);
  const payer = operatorSigner(job.context.feePayerSeed);
  return { extension, signer, ae, payer };
}

/** Withdraw (equality + range proofs) to the sender's public balance, then TransferChecked to the recipient. */
export async function buildWithdrawAndPay(
  job: WithdrawAndPayJob,
  engine: ProofEngine,
): Promise<SignedTransactionPlan> {
  const { extension, signer, ae, payer } = openConfidentialSource(job);
  const steps: InstructionPlan[] = [];
  if (job.withdrawAmount > 0n) {
    steps.push(await withdrawPlan(job, extension, { signer, ae, payer }, engine));
  }
  const payment: Instruction[] = job.withdrawAmount > 0n ? [] : [uniquenessMemo()];
  payment.push(
    getCreateAssociatedTokenIdempotentInstruction({
      payer,
      ata: job.recipientToken,
      owner: job.recipientOwner,
      mint: job.mint,
      tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
    }),
    getTransferCheckedInstruction({
      source: job.source,
      mint: job.mint,
      destination: job.recipientToken,
      authority: signer,
      amount: job.amount,
      decimals: job.decimals,
    }),
  );
  return planAndSign(sequentialInstructionPlan([...steps, ...payment]), payer, job.context);
}

/** Equality and range proofs verified into context-state accounts, the withdraw, then their cleanup. */
export async function withdrawPlan(
  job: Pick<WithdrawAndPayJob, 'context' | 'keys' | 'source' | 'mint' | 'decimals' | 'withdrawAmount'>,
  extension: ConfidentialAccountExtension,
  keys: { signer: TransactionSigner; ae: AeKey; payer: TransactionSigner },
  engine: ProofEngine,
): Promise<InstructionPlan> {
  const available = decryptAvailable(extension, keys.ae);
  assertCovers(available, job.withdrawAmount);
  const newAvailable = available - job.withdrawAmount;
  const proofs = engine.withdraw({
    elgamalSecret: job.keys.elgamalSecret,
    availableBalance: new Uint8Array(extension.availableBalance),
    newAvailable,
    amount: job.withdrawAmount,
  });
  const rpc = rentOnlyRpc(job.context.rent);
  const [equality, range] = await Promise.all([
    contextStateProof(proofs.equality, verifyCiphertextCommitmentEquality, keys.payer, rpc),
    contextStateProof(proofs.range, verifyBatchedRangeProofU64, keys.payer, rpc),
  ]);
  return sequentialInstructionPlan([
    parallelInstructionPlan([equality.setup, range.setup]),
    getConfidentialWithdrawInstruction({
      token: job.source,
      mint: job.mint,
      equalityRecord: equality.address,
      rangeRecord: range.address,
      authority: keys.signer,
      amount: job.withdrawAmount,
      decimals: job.decimals,
      newDecryptableAvailableBalance: keys.ae.encrypt(newAvailable).toBytes(),
      equalityProofInstructionOffset: 0,
      rangeProofInstructionOffset: 0,
    }),
    parallelInstructionPlan([equality.cleanup, range.cleanup]),
  ]);
}

const MEMO_PROGRAM_ADDRESS = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

/**
 * Without a withdraw (no random proof inside), two equal payments signed in the same block would be
 * byte-identical: the second would be rejected as already processed and mistaken for the first.
 */
function uniquenessMemo(): Instruction {
  return { programAddress: MEMO_PROGRAM_ADDRESS, data: new TextEncoder().encode(`cts:${randomUUID()}`) };
}
