import {
  TOKEN_2022_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getTransferCheckedInstruction,
} from '@solana-program/token-2022';
import {
  type Address,
  type Instruction,
  appendTransactionMessageInstructions,
  blockhash,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';
import { randomBytes } from 'node:crypto';
import { type AccountKeyMaterial } from '../ledger.port';
import { seedSigner } from '../keys/seed-signer';

const MEMO_PROGRAM_ADDRESS = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr' as Address;
const COMPUTE_BUDGET_PROGRAM_ADDRESS = 'ComputeBudget111111111111111111111111111111' as Address;
/** What the reference x402 client asks: enough for a TransferChecked and a memo, at the lowest price. */
export const EXACT_COMPUTE_UNIT_LIMIT = 20_000;
export const EXACT_COMPUTE_UNIT_PRICE_MICROLAMPORTS = 1n;
export const MAX_EXACT_MEMO_BYTES = 256;

export interface ExactPaymentJob {
  from: AccountKeyMaterial;
  mint: Address;
  decimals: number;
  payTo: Address;
  amount: bigint;
  /** The facilitator's fee payer (`extra.feePayer`): it signs last, when it settles. */
  feePayer: Address;
  /** The seller's `extra.memo`; otherwise a random nonce keeps two equal payments distinct. */
  memo: string | null;
  blockhash: string;
  lastValidBlockHeight: bigint;
}

export interface SignedExactPayment {
  /** Base64 wire transaction, signed by the payer only (the fee payer's slot is empty). */
  transaction: string;
  /** The signed message, base64: the fee payer's settlement signature is over exactly these bytes. */
  message: string;
  payer: Address;
}

/**
 * The x402 `exact` scheme on Solana (coinbase/x402 scheme_exact_svm): compute-unit limit, compute-unit
 * price, one TransferChecked of exactly `amount` from the payer's associated token account to `payTo`'s,
 * then a memo. Nothing else: the facilitator refuses any other instruction, and the fee payer appears in
 * no instruction, so signing it can move nothing of the facilitator's.
 */
export async function buildExactPayment(job: ExactPaymentJob): Promise<SignedExactPayment> {
  const owner = seedSigner(job.from.signingSeed);
  const [source] = await findAssociatedTokenPda({
    mint: job.mint,
    owner: owner.address,
    tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
  });
  const [destination] = await findAssociatedTokenPda({
    mint: job.mint,
    owner: job.payTo,
    tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
  });
  const instructions: Instruction[] = [
    computeBudget(2, 4, EXACT_COMPUTE_UNIT_LIMIT),
    computeBudget(3, 8, EXACT_COMPUTE_UNIT_PRICE_MICROLAMPORTS),
    getTransferCheckedInstruction({
      source,
      mint: job.mint,
      destination,
      authority: owner,
      amount: job.amount,
      decimals: job.decimals,
    }),
    memoInstruction(job.memo),
  ];
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(job.feePayer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: blockhash(job.blockhash), lastValidBlockHeight: job.lastValidBlockHeight },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const signed = await partiallySignTransactionMessageWithSigners(message);
  return {
    transaction: getBase64EncodedWireTransaction(signed),
    message: Buffer.from(signed.messageBytes).toString('base64'),
    payer: owner.address,
  };
}

/**
 * SetComputeUnitLimit (2, u32 units) and SetComputeUnitPrice (3, u64 micro-lamports) of the Compute
 * Budget program: a tag byte and a little-endian integer, no accounts. Encoded here rather than with
 * @solana-program/compute-budget, whose releases declare @solana/kit 5 as their peer.
 */
function computeBudget(tag: 2 | 3, width: 4 | 8, value: number | bigint): Instruction {
  const data = new Uint8Array(1 + width);
  const view = new DataView(data.buffer);
  data[0] = tag;
  if (width === 4) {
    view.setUint32(1, Number(value), true);
  } else {
    view.setBigUint64(1, BigInt(value), true);
  }
  return { programAddress: COMPUTE_BUDGET_PROGRAM_ADDRESS, data };
}

function memoInstruction(memo: string | null): Instruction {
  const data =
    memo === null
      ? new TextEncoder().encode(randomBytes(16).toString('hex'))
      : new TextEncoder().encode(memo);
  if (data.byteLength > MAX_EXACT_MEMO_BYTES) {
    throw new RangeError(`extra.memo exceeds ${MAX_EXACT_MEMO_BYTES} bytes`);
  }
  return { programAddress: MEMO_PROGRAM_ADDRESS, accounts: [], data };
}
