import { gcm } from '@noble/ciphers/aes.js';
import { randomBytes } from '@noble/ciphers/utils.js';
import { ristretto255 } from '@noble/curves/ed25519.js';
import { bytesToNumberLE } from '@noble/curves/utils.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { CryptoError } from './crypto-error';
import { concatBytes, decodeBase64, encodeBase64Url, utf8Decode, utf8Encode } from './encoding';
import { PEDERSEN_H, decodePoint, deriveElGamalPubkey, elgamalSecretScalar } from './elgamal';

// ECIES to a zk-sdk ElGamal key P = s⁻¹·H. The sender picks r and publishes E = r·P; the shared
// point is Z = r·H, which the holder of s recovers as s·E (the same step that decrypts a twisted
// ElGamal handle). Nobody else can compute Z without s (CDH in base P).
// Output: m1.<base64url(E(32) ‖ AES-256-GCM ciphertext ‖ tag)>; key and nonce come from HKDF, so the
// fresh r per message makes a stored nonce unnecessary.
const VERSION = 'm1';
const INFO_DOMAIN = utf8Encode('cts.memo.v1');
const POINT_BYTES = 32;
const TAG_BYTES = 16;
/** UTF-8 bytes; longer memos are refused rather than truncated. */
export const MEMO_MAX_BYTES = 1024;

export interface MemoParties {
  sender: Uint8Array;
  recipient: Uint8Array;
}

function randomScalar(): bigint {
  const Fn = ristretto255.Point.Fn;
  for (;;) {
    // 64 bytes reduced mod ℓ: uniform; retry on the negligible zero.
    const scalar = Fn.create(bytesToNumberLE(randomBytes(64)));
    if (scalar !== 0n) {
      return scalar;
    }
  }
}

function deriveCipher(shared: Uint8Array, pubkey: Uint8Array, ephemeral: Uint8Array) {
  const okm = hkdf(sha256, shared, undefined, concatBytes(INFO_DOMAIN, pubkey, ephemeral), 44);
  return gcm(okm.subarray(0, 32), okm.subarray(32));
}

/** Encrypts a memo so that only the holder of the ElGamal secret behind `elgamalPubkey` reads it. */
export function encryptMemoFor(elgamalPubkey: Uint8Array, memo: string): string {
  const plaintext = utf8Encode(memo);
  if (plaintext.length > MEMO_MAX_BYTES) {
    throw new CryptoError('malformed_input', `memo is longer than ${MEMO_MAX_BYTES} bytes`);
  }
  const pubkey = decodePoint(elgamalPubkey);
  if (!pubkey || pubkey.equals(ristretto255.Point.ZERO)) {
    throw new CryptoError('invalid_key', 'not a valid ElGamal public key');
  }
  const r = randomScalar();
  const ephemeral = pubkey.multiply(r).toBytes();
  const shared = PEDERSEN_H.multiply(r).toBytes();
  const sealed = deriveCipher(shared, elgamalPubkey, ephemeral).encrypt(plaintext);
  return `${VERSION}.${encodeBase64Url(concatBytes(ephemeral, sealed))}`;
}

/** One ciphertext per party; each opens only with that party's `decryption_key`. */
export function encryptMemo(memo: string, parties: MemoParties): { sender: string; recipient: string } {
  return { sender: encryptMemoFor(parties.sender, memo), recipient: encryptMemoFor(parties.recipient, memo) };
}

/** Throws CryptoError `malformed_input`, `unsupported_version`, or `authentication_failed` (not for this key). */
export function decryptMemo(elgamalSecret: Uint8Array, encryptedMemo: string): string {
  const [version, body, ...rest] = encryptedMemo.split('.');
  if (version !== VERSION || body === undefined || rest.length > 0) {
    const code = body !== undefined && /^m\d+$/.test(version) ? 'unsupported_version' : 'malformed_input';
    throw new CryptoError(code, 'not an m1 encrypted memo');
  }
  const bytes = decodeBase64(body);
  const ephemeral = bytes ? decodePoint(bytes.subarray(0, POINT_BYTES)) : undefined;
  if (
    !bytes ||
    !ephemeral ||
    ephemeral.equals(ristretto255.Point.ZERO) ||
    bytes.length < POINT_BYTES + TAG_BYTES
  ) {
    throw new CryptoError('malformed_input', 'encrypted memo is damaged');
  }
  const secret = elgamalSecretScalar(elgamalSecret);
  const shared = ephemeral.multiply(secret).toBytes();
  const cipher = deriveCipher(shared, deriveElGamalPubkey(elgamalSecret), bytes.subarray(0, POINT_BYTES));
  let plaintext: Uint8Array;
  try {
    plaintext = cipher.decrypt(bytes.subarray(POINT_BYTES));
  } catch {
    throw new CryptoError('authentication_failed', 'memo is not encrypted for this key');
  }
  try {
    return utf8Decode(plaintext);
  } catch {
    throw new CryptoError('malformed_input', 'memo is not UTF-8');
  }
}
