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
  /** Static accounts the transaction may write: what the runtime must persist after it lands. */
  writable: Address[];
}

export function parseWireTransaction(wire: Uint8Array): ParsedWireTransaction | { message: string } {
  try {
    const transaction = getTransactionDecoder().decode(wire);
    const compiled = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    if ('addressTableLookups' in compiled && (compiled.addressTableLookups?.length ?? 0) > 0) {
      // Accounts loaded through a lookup table would escape the persistence tracking.
      return { message: 'address lookup tables are not supported by the local ledger' };
    }
    const [feePayer] = compiled.staticAccounts;
    const signatureBytes = feePayer === undefined ? null : transaction.signatures[feePayer];
    if (signatureBytes === null || signatureBytes === undefined) {
      return { message: 'transaction is not signed by its fee payer' };
    }
    const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = compiled.header;
    const total = compiled.staticAccounts.length;
    const writable = compiled.staticAccounts.filter((_, index) =>
      index < numSignerAccounts
        ? index < numSignerAccounts - numReadonlySignerAccounts
        : index < total - numReadonlyNonSignerAccounts,
    );
    const signature = getBase58Decoder().decode(signatureBytes);
    return { transaction, signature, blockhash: compiled.lifetimeToken, writable };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { message: `failed to deserialize transaction: ${reason}` };
  }
}
