import {
  TOKEN_2022_PROGRAM_ADDRESS,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token-2022';
import { randomUUID } from 'node:crypto';
import { type Instruction, type InstructionPlan, address, sequentialInstructionPlan } from '@solana/kit';
import { confidentialExtensionOf } from '../accounts/token-state';
import { openAccountKeys, signerFromSeed } from '../keys/account-keys';
import { LedgerError } from '../ledger.errors';
import { assertCovers, decryptAvailable } from './balance-decryption';
import { type SignedTransactionPlan, type WithdrawAndPayJob } from './build-job';
import { getConfidentialWithdrawInstructionPlan } from './confidential-helpers';
import { planAndSign, rentOnlyRpc } from './plan-signing';

/** Withdraw (equality + range proofs) to the sender's public balance, then TransferChecked to the recipient. */
export async function buildWithdrawAndPay(job: WithdrawAndPayJob): Promise<SignedTransactionPlan> {
  const extension = confidentialExtensionOf(job.sourceState);
  if (extension === null) {
    throw new LedgerError(
      'account_not_confidential',
      'the source account is not configured for confidential transfers',
    );
  }
  const { signer, elgamal, ae } = await openAccountKeys(job.keys);
  const payer = await signerFromSeed(job.context.feePayerSeed);
  const steps: InstructionPlan[] = [];
  if (job.withdrawAmount > 0n) {
    assertCovers(decryptAvailable(extension, ae), job.withdrawAmount);
    steps.push(
      await getConfidentialWithdrawInstructionPlan({
        token: job.source,
        mint: job.mint,
        tokenAccount: job.sourceState,
        authority: signer,
        amount: job.withdrawAmount,
        decimals: job.decimals,
        elgamalKeypair: elgamal,
        aesKey: ae,
        payer,
        rpc: rentOnlyRpc(job.context.rent),
      }),
    );
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

const MEMO_PROGRAM_ADDRESS = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

/**
 * Without a withdraw (no random proof inside), two equal payments signed in the same block would be
 * byte-identical: the second would be rejected as already processed and mistaken for the first.
 */
function uniquenessMemo(): Instruction {
  return { programAddress: MEMO_PROGRAM_ADDRESS, data: new TextEncoder().encode(`cts:${randomUUID()}`) };
}
