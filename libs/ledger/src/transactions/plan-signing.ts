import {
  type GetAccountInfoApi,
  type GetMinimumBalanceForRentExemptionApi,
  type Instruction,
  type InstructionPlan,
  type Rpc,
  type TransactionSigner,
  blockhash,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  lamports,
  pipe,
  sequentialInstructionPlan,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { TOKEN_2022_PROGRAM_ADDRESS } from '@solana-program/token-2022';
import { type RentSchedule, type SignedTransactionPlan, type SigningContext } from './build-job';
import { planMessages } from './plan-layouts';

export type PlannerRpc = Rpc<GetMinimumBalanceForRentExemptionApi & GetAccountInfoApi>;

export function rentFor(rent: RentSchedule, size: bigint): bigint {
  return rent.baseLamports + size * rent.lamportsPerByte;
}

/**
 * The token-2022 planners only ask the RPC for rent of the proof context accounts (the mint is passed
 * in decoded). Answering from the rent schedule keeps builders free of I/O, so they can run in a worker.
 */
export function rentOnlyRpc(rent: RentSchedule): PlannerRpc {
  const rpc = {
    getMinimumBalanceForRentExemption: (size: bigint) => ({
      send: () => Promise.resolve(lamports(rentFor(rent, BigInt(size)))),
    }),
    getAccountInfo: () => ({
      send: () => Promise.reject(new Error('builders must receive decoded accounts, not fetch them')),
    }),
  };
  return rpc as unknown as PlannerRpc;
}

export async function planAndSign(
  plan: InstructionPlan | Instruction[],
  feePayer: TransactionSigner,
  recent: Pick<SigningContext, 'blockhash' | 'lastValidBlockHeight'>,
): Promise<SignedTransactionPlan> {
  const lifetime = {
    blockhash: blockhash(recent.blockhash),
    lastValidBlockHeight: recent.lastValidBlockHeight,
  };
  const newMessage = () =>
    pipe(
      createTransactionMessage({ version: 0 }),
      (message) => setTransactionMessageFeePayerSigner(feePayer, message),
      (message) => setTransactionMessageLifetimeUsingBlockhash(lifetime, message),
    );
  const { messages, stages } = await planMessages(
    Array.isArray(plan) ? sequentialInstructionPlan(plan) : plan,
    feePayer.address,
    newMessage,
  );
  const transactions = [];
  let primaryIndex = messages.length - 1;
  for (const [index, message] of messages.entries()) {
    const signed = await signTransactionMessageWithSigners(
      setTransactionMessageLifetimeUsingBlockhash(lifetime, message),
    );
    transactions.push({
      wire: getBase64EncodedWireTransaction(signed),
      signature: getSignatureFromTransaction(signed),
    });
    if (
      message.instructions.some((instruction) => instruction.programAddress === TOKEN_2022_PROGRAM_ADDRESS)
    ) {
      primaryIndex = index;
    }
  }
  return { transactions, primaryIndex, stages };
}
