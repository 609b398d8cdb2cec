import {
  type Address,
  type Transaction,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
} from '@solana/kit';

export interface ParsedWireTransaction {
  transaction: Transaction;
  /** The fee payer's signature: the transaction's id. */
  signature: string;
  blockhash: string;
  feePayer: Address | undefined;
  /** Static accounts the transaction may write: what the runtime must persist after it lands. */
  writable: Address[];
}

// Built once: kit's codec factories assemble their struct codecs on every call (every transaction).
const transactionDecoder = getTransactionDecoder();
const messageDecoder = getCompiledTransactionMessageDecoder();
const base58 = getBase58Decoder();

/** What a transaction is called before its fee payer signed it (Solana shows the empty signature so). */
const UNSIGNED = base58.decode(new Uint8Array(64));

/**
 * `unsignedFeePayer`: a simulation without signature verification takes a transaction its fee payer
 * has not signed yet, as Solana's does (an x402 facilitator simulates the payer's partially signed
 * transaction before adding its own signature).
 */
export function parseWireTransaction(
  wire: Uint8Array,
  options: { unsignedFeePayer?: boolean } = {},
): ParsedWireTransaction | { message: string } {
  try {
    const transaction = transactionDecoder.decode(wire);
    const compiled = messageDecoder.decode(transaction.messageBytes);
    if ('addressTableLookups' in compiled && (compiled.addressTableLookups?.length ?? 0) > 0) {
      // Accounts loaded through a lookup table would escape the persistence tracking.
      return { message: 'address lookup tables are not supported by the local ledger' };
    }
    const [feePayer] = compiled.staticAccounts;
    const signatureBytes = feePayer === undefined ? null : transaction.signatures[feePayer];
    if ((signatureBytes === null || signatureBytes === undefined) && options.unsignedFeePayer !== true) {
      return { message: 'transaction is not signed by its fee payer' };
    }
    const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = compiled.header;
    const total = compiled.staticAccounts.length;
    const writable = compiled.staticAccounts.filter((_, index) =>
      index < numSignerAccounts
        ? index < numSignerAccounts - numReadonlySignerAccounts
        : index < total - numReadonlyNonSignerAccounts,
    );
    const signature = signatureBytes ? base58.decode(signatureBytes) : UNSIGNED;
    return { transaction, signature, blockhash: compiled.lifetimeToken, feePayer, writable };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { message: `failed to deserialize transaction: ${reason}` };
  }
}
