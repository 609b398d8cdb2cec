import {
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  type Signature,
  isSolanaError,
} from '@solana/kit';
import { InsufficientFundsOnchainError, LedgerError, TransactionFailedError } from '../ledger.errors';
import { type SignatureOutcome } from '../ledger.port';
import { type SignedTransaction, type SignedTransactionPlan } from '../transactions/build-job';
import { COMMITMENT, type LedgerRpc, type LedgerTimeouts, sleep } from './ledger-rpc';
import { type OrderedSendAnswer, type OrderedSender } from './ordered-sender';

type SendStatus = 'sent' | 'already-processed' | 'unknown';

/** How the plan's transactions may reach the node. */
export interface SendingNode {
  /**
   * The node executes a transaction before it answers its send, and refuses one whose preflight
   * fails (the local ledger): a signature it returns has landed, so no status poll follows.
   */
  landsOnSend: boolean;
  /** It also executes a JSON-RPC batch in order: the whole plan goes in one request. */
  sendInOrder?: OrderedSender;
}

/**
 * Sends a plan's transactions stage by stage: a stage's transactions together, each stage once the one
 * before is confirmed (later ones consume the proof context accounts earlier ones create). A stage's
 * signatures are polled in one status request; against a node that `landsOnSend`, only those whose
 * send did not answer with its signature are; to one that also runs a batch in order, the whole plan
 * goes in one request. Returns the primary transaction's signature; a stage that fails stops the plan
 * once all its sends are settled.
 */
export async function sendPlan(
  rpc: LedgerRpc,
  plan: SignedTransactionPlan,
  lastValidBlockHeight: bigint,
  timeouts: LedgerTimeouts,
  node: SendingNode = { landsOnSend: false },
): Promise<Signature> {
  if (node.landsOnSend && node.sendInOrder && plan.stages.length > 1) {
    const uncertain = await sendInOneBatch(node.sendInOrder, plan, timeouts);
    if (uncertain !== undefined) {
      if (uncertain.length > 0) {
        await confirmAll(rpc, uncertain, lastValidBlockHeight, timeouts);
      }
      return transactionAt(plan, plan.primaryIndex).signature;
    }
  }
  for (const stage of plan.stages) {
    const transactions = stage.map((index) => transactionAt(plan, index));
    const sent = await Promise.allSettled(
      transactions.map((transaction) => submit(rpc, transaction, timeouts)),
    );
    const failed = sent.find((result) => result.status === 'rejected');
    if (failed !== undefined) {
      throw failed.reason;
    }
    const answered = (index: number) => {
      const result = sent[index];
      return result?.status === 'fulfilled' && result.value === 'sent';
    };
    const unconfirmed = transactions.filter((_, index) => !(node.landsOnSend && answered(index)));
    if (unconfirmed.length > 0) {
      await confirmAll(rpc, unconfirmed, lastValidBlockHeight, timeouts);
    }
  }
  return transactionAt(plan, plan.primaryIndex).signature;
}

/**
 * The whole plan in one request, stage after stage, to a node that runs a batch in order and lands a
 * transaction before it answers. A refusal fails the plan with the first one, as stage by stage would
 * (the transactions after it then find no proof context, or close the ones that exist). Returns the
 * transactions the node says it already had (to be confirmed), or undefined when the batch got no
 * usable answer: then the caller goes stage by stage, resending the same bytes.
 */
async function sendInOneBatch(
  sendInOrder: OrderedSender,
  plan: SignedTransactionPlan,
  timeouts: LedgerTimeouts,
): Promise<SignedTransaction[] | undefined> {
  const transactions = plan.stages.flat().map((index) => transactionAt(plan, index));
  let answers: OrderedSendAnswer[];
  try {
    answers = await sendInOrder(
      transactions.map((transaction) => transaction.wire),
      AbortSignal.timeout(timeouts.requestMs),
    );
  } catch {
    return undefined;
  }
  return transactions.filter((transaction, index) => {
    const answer = answers[index];
    if (answer?.sent) {
      return false;
    }
    if (answer) {
      // Throws on a refusal: in order, so the first refusal is the one thrown.
      sendErrorStatus(transaction, answer.error);
    }
    return true;
  });
}

function transactionAt(plan: SignedTransactionPlan, index: number): SignedTransaction {
  const transaction = plan.transactions[index];
  if (transaction === undefined) {
    throw new LedgerError('transaction_failed', `the plan has no transaction ${index}`);
  }
  return transaction;
}

async function confirmAll(
  rpc: LedgerRpc,
  transactions: readonly SignedTransaction[],
  lastValidBlockHeight: bigint,
  timeouts: LedgerTimeouts,
): Promise<void> {
  let pending = [...transactions];
  const deadline = Date.now() + timeouts.confirmMs;
  let resends = 0;
  for (let attempt = 0; ; attempt += 1) {
    const signal = AbortSignal.timeout(timeouts.requestMs);
    const { value } = await rpc
      .getSignatureStatuses(pending.map((transaction) => transaction.signature))
      .send({ abortSignal: signal });
    const unseen: SignedTransaction[] = [];
    const unconfirmed: SignedTransaction[] = [];
    pending.forEach((transaction, index) => {
      const status = value[index];
      if (status?.err) {
        throw new TransactionFailedError(
          `transaction ${transaction.signature} failed on-chain: ${describe(status.err)}`,
        );
      }
      if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') {
        return;
      }
      unconfirmed.push(transaction);
      if (status === null || status === undefined) {
        unseen.push(transaction);
      }
    });
    pending = unconfirmed;
    if (pending.length === 0) {
      return;
    }
    const [first] = pending;
    if (Date.now() > deadline) {
      throw new LedgerError(
        'transaction_not_confirmed',
        `transaction ${first?.signature} not confirmed in time`,
      );
    }
    if (unseen.length > 0 && attempt > 0) {
      const height = await rpc.getBlockHeight({ commitment: COMMITMENT }).send({ abortSignal: signal });
      if (height > lastValidBlockHeight) {
        throw new LedgerError(
          'transaction_not_confirmed',
          `transaction ${unseen[0]?.signature} expired unconfirmed`,
        );
      }
      // Nodes may drop a transaction under load: rebroadcasting the same bytes is idempotent.
      if (attempt % 5 === 0 && resends < 10) {
        resends += 1;
        await Promise.all(unseen.map((transaction) => submit(rpc, transaction, timeouts)));
      }
    }
    await sleep(attempt === 0 ? 0 : timeouts.pollMs);
  }
}

async function submit(
  rpc: LedgerRpc,
  transaction: SignedTransaction,
  timeouts: LedgerTimeouts,
): Promise<SendStatus> {
  try {
    await rpc
      .sendTransaction(transaction.wire, { encoding: 'base64', preflightCommitment: COMMITMENT })
      .send({ abortSignal: AbortSignal.timeout(timeouts.requestMs) });
    return 'sent';
  } catch (error) {
    return sendErrorStatus(transaction, error);
  }
}

/** What a failed send means: the node had it already, or (thrown) it refused it, or nothing is known. */
function sendErrorStatus(transaction: SignedTransaction, error: unknown): SendStatus {
  if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)) {
    if (isSolanaError(error.cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED)) {
      return 'already-processed';
    }
    throw preflightError(transaction.signature, error.message, error.context.logs ?? []);
  }
  if (isSolanaError(error)) {
    throw new TransactionFailedError(
      `transaction ${transaction.signature} was refused: ${error.message}`,
      [],
      {
        cause: error,
      },
    );
  }
  // A transport failure tells nothing about whether the node got it: the status poll decides.
  return 'unknown';
}

function preflightError(signature: Signature, message: string, logs: readonly string[]): LedgerError {
  if (logs.some((line) => /insufficient funds/i.test(line))) {
    return new InsufficientFundsOnchainError();
  }
  return new TransactionFailedError(`transaction ${signature} failed preflight: ${message}`, logs);
}

function describe(error: unknown): string {
  return JSON.stringify(error, (_key, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
}

/** For reconciliation after a crash: did this signature land? Only confirmed/finalized count. */
export async function signatureOutcome(
  rpc: LedgerRpc,
  signature: Signature,
  abortSignal: AbortSignal,
): Promise<SignatureOutcome> {
  const { value } = await rpc
    .getSignatureStatuses([signature], { searchTransactionHistory: true })
    .send({ abortSignal });
  const status = value[0];
  if (status === null || status === undefined) {
    return 'unknown';
  }
  if (status.err !== null) {
    return 'failed';
  }
  return status.confirmationStatus === 'confirmed' || status.confirmationStatus === 'finalized'
    ? 'confirmed'
    : 'unknown';
}
