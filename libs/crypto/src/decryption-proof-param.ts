import { parseAmount } from './amount';
import { decodeBase64, encodeBase64, encodeBase64Url, utf8Decode, utf8Encode } from './encoding';
import { DECRYPTION_PROOF_BYTES } from './decryption-proof';

// Wire format of `decryption_proof` (ARCHITECTURE §6): base64 of
// {"v":1,"proofs":[{"asset":"USDC","amount":"12.5","proof":"<base64 of 192 bytes>"}]}.

export interface DecryptionProofEntry {
  asset: string;
  /** Base units. */
  amount: bigint;
  proof: Uint8Array;
}

export interface DecryptionProofWireEntry {
  asset: string;
  /** Decimal string in asset units. */
  amount: string;
  proof: Uint8Array;
}

export type DecryptionProofParseFailure =
  | 'too_long'
  | 'invalid_base64'
  | 'invalid_json'
  | 'unsupported_version'
  | 'invalid_shape'
  | 'empty'
  | 'too_many_entries'
  | 'unknown_asset'
  | 'duplicate_asset'
  | 'invalid_amount'
  | 'invalid_proof';

export interface DecryptionProofParseError {
  reason: DecryptionProofParseFailure;
  message: string;
  /** Which entry of `proofs`, when the failure is about one. */
  index?: number;
}

export type DecryptionProofParseResult =
  { ok: true; entries: DecryptionProofEntry[] } | { ok: false; error: DecryptionProofParseError };

export const DECRYPTION_PROOF_PARAM_MAX_LENGTH = 8192;
export const DECRYPTION_PROOF_MAX_ENTRIES = 16;
const VERSION = 1;

type EntryResult =
  { ok: true; entry: DecryptionProofEntry } | { ok: false; error: DecryptionProofParseError };

function failure(reason: DecryptionProofParseFailure, message: string, index?: number) {
  return {
    ok: false as const,
    error: index === undefined ? { reason, message } : { reason, message, index },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasExactly(record: Record<string, unknown>, keys: readonly string[]): boolean {
  const present = Object.keys(record);
  return present.length === keys.length && keys.every((key) => present.includes(key));
}

function decodeJson(
  raw: string,
): { ok: true; value: unknown } | { ok: false; error: DecryptionProofParseError } {
  const bytes = decodeBase64(raw.trim());
  if (!bytes) {
    return failure('invalid_base64', 'decryption_proof is not base64');
  }
  try {
    return { ok: true, value: JSON.parse(utf8Decode(bytes)) as unknown };
  } catch {
    return failure('invalid_json', 'decryption_proof does not decode to JSON');
  }
}

function parseEntry(
  value: unknown,
  index: number,
  decimalsOf: (asset: string) => number | undefined,
): EntryResult {
  if (!isRecord(value) || !hasExactly(value, ['asset', 'amount', 'proof'])) {
    return failure('invalid_shape', 'each proof must be {"asset","amount","proof"}', index);
  }
  const { asset, amount, proof } = value;
  if (typeof asset !== 'string' || typeof amount !== 'string' || typeof proof !== 'string') {
    return failure('invalid_shape', 'asset, amount and proof must be strings', index);
  }
  const decimals = decimalsOf(asset);
  if (decimals === undefined) {
    return failure('unknown_asset', `unknown asset "${asset.slice(0, 16)}"`, index);
  }
  const parsed = parseAmount(amount, decimals, { allowZero: true });
  if (!parsed.ok) {
    return failure('invalid_amount', `amount for ${asset} is invalid (${parsed.reason})`, index);
  }
  const proofBytes = decodeBase64(proof);
  if (!proofBytes || proofBytes.length !== DECRYPTION_PROOF_BYTES) {
    return failure(
      'invalid_proof',
      `proof for ${asset} must be base64 of ${DECRYPTION_PROOF_BYTES} bytes`,
      index,
    );
  }
  return { ok: true, entry: { asset, amount: parsed.value, proof: proofBytes } };
}

/**
 * Parses the `decryption_proof` query parameter or `X-Decryption-Proof` header. Checks syntax only:
 * each proof still has to pass `verifyDecryptionProof` against the ledger's ciphertext.
 */
export function parseDecryptionProofParam(
  raw: string,
  decimalsOf: (asset: string) => number | undefined,
): DecryptionProofParseResult {
  if (raw.length > DECRYPTION_PROOF_PARAM_MAX_LENGTH) {
    return failure(
      'too_long',
      `decryption_proof is longer than ${DECRYPTION_PROOF_PARAM_MAX_LENGTH} characters`,
    );
  }
  const decoded = decodeJson(raw);
  if (!decoded.ok) {
    return decoded;
  }
  const body = decoded.value;
  if (!isRecord(body) || !hasExactly(body, ['v', 'proofs']) || !Array.isArray(body.proofs)) {
    return failure('invalid_shape', 'decryption_proof must be {"v":1,"proofs":[…]}');
  }
  if (body.v !== VERSION) {
    return failure('unsupported_version', `decryption_proof version must be ${VERSION}`);
  }
  const proofs: unknown[] = body.proofs;
  if (proofs.length === 0) {
    return failure('empty', 'decryption_proof has no proofs');
  }
  if (proofs.length > DECRYPTION_PROOF_MAX_ENTRIES) {
    return failure(
      'too_many_entries',
      `decryption_proof has more than ${DECRYPTION_PROOF_MAX_ENTRIES} proofs`,
    );
  }
  const entries: DecryptionProofEntry[] = [];
  for (const [index, value] of proofs.entries()) {
    const parsed = parseEntry(value, index, decimalsOf);
    if (!parsed.ok) {
      return parsed;
    }
    if (entries.some((entry) => entry.asset === parsed.entry.asset)) {
      return failure('duplicate_asset', `asset ${parsed.entry.asset} is proven twice`, index);
    }
    entries.push(parsed.entry);
  }
  return { ok: true, entries };
}

/** The client side of the format; base64url so it needs no escaping in a query string. */
export function encodeDecryptionProofParam(entries: readonly DecryptionProofWireEntry[]): string {
  if (entries.length === 0) {
    throw new RangeError('a decryption proof needs at least one entry');
  }
  const body = {
    v: VERSION,
    proofs: entries.map(({ asset, amount, proof }) => ({ asset, amount, proof: encodeBase64(proof) })),
  };
  return encodeBase64Url(utf8Encode(JSON.stringify(body)));
}
