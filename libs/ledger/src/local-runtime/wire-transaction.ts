import {
  type Address,
  type Transaction,
  type SignatureBytes,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getShortU16Decoder,
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
const shortU16 = getShortU16Decoder();

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
    const { transaction, compiled } = decodeOnce(wire) ?? decodeWithKit(wire);
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

type CompiledMessage = ReturnType<typeof messageDecoder.decode>;

function decodeWithKit(wire: Uint8Array): { transaction: Transaction; compiled: CompiledMessage } {
  const transaction = transactionDecoder.decode(wire);
  return { transaction, compiled: messageDecoder.decode(transaction.messageBytes) };
}

/**
 * Kit's transaction decoder decodes the message's static addresses (base58, through BigInts) to name
 * the signatures, and the message decoder then decodes them all again: for the usual layout
 * (signatures first, then a legacy or v0 message) the message is decoded once here and the signature
 * map built from it as kit builds it. Null for anything else, which kit then decodes as before.
 */
function decodeOnce(wire: Uint8Array): { transaction: Transaction; compiled: CompiledMessage } | null {
  if (wire.length === 0 || (wire[0] ?? 0) & 0x80) {
    return null;
  }
  const [count, offset] = shortU16.read(wire, 0);
  const messageOffset = offset + 64 * count;
  if (messageOffset > wire.length) {
    return null;
  }
  const messageBytes = wire.slice(messageOffset);
  const compiled = messageDecoder.decode(messageBytes);
  const signers = compiled.staticAccounts.slice(0, compiled.header.numSignerAccounts);
  if (signers.length !== count) {
    return null;
  }
  const signatures: Record<Address, SignatureBytes | null> = {};
  signers.forEach((signer, index) => {
    const bytes = wire.slice(offset + 64 * index, offset + 64 * (index + 1));
    signatures[signer] = bytes.every((byte) => byte === 0) ? null : (bytes as SignatureBytes);
  });
  const transaction = Object.freeze({
    messageBytes: messageBytes as unknown as Transaction['messageBytes'],
    signatures: Object.freeze(signatures),
  }) as Transaction;
  return { transaction, compiled };
}
