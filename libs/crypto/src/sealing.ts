import { randomBytes } from '@noble/ciphers/utils.js';
import { aesGcmDecrypt, aesGcmEncrypt } from './aes-gcm';
import { CryptoError } from './crypto-error';
import { concatBytes, decodeBase64, encodeBase64, encodeBase64Url, utf8Encode } from './encoding';
import { u64FromBytes, u64ToBytes } from './u64';

declare const sealingKeyBrand: unique symbol;
/** A 32-byte AES-256-GCM key that went through validation (master key, internal data key). */
export type SealingKey = Uint8Array & { readonly [sealingKeyBrand]: true };

/** Binds a sealed value to where it belongs (e.g. account id + environment): unsealing elsewhere fails. */
export type AssociatedData = string | Uint8Array;

export const SEALING_KEY_BYTES = 32;
const VERSION = 's1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
// The version is authenticated too, so a future format can never be confused with this one.
const AAD_DOMAIN = utf8Encode(`cts.seal.${VERSION}\0`);

export function sealingKeyFromBytes(bytes: Uint8Array, name = 'sealing key'): SealingKey {
  if (bytes.length !== SEALING_KEY_BYTES) {
    throw new CryptoError('invalid_key', `${name} must be ${SEALING_KEY_BYTES} bytes, got ${bytes.length}`);
  }
  return Uint8Array.from(bytes) as SealingKey;
}

/** Parses a key from configuration (base64 of 32 bytes); `name` is the setting, for the error message. */
export function parseSealingKey(base64: string | undefined, name = 'sealing key'): SealingKey {
  const trimmed = base64?.trim() ?? '';
  if (trimmed === '') {
    throw new CryptoError(
      'invalid_key',
      `${name} is not set (expected base64 of ${SEALING_KEY_BYTES} bytes)`,
    );
  }
  const bytes = decodeBase64(trimmed);
  if (!bytes) {
    throw new CryptoError(
      'invalid_key',
      `${name} is not valid base64 (expected base64 of ${SEALING_KEY_BYTES} bytes)`,
    );
  }
  return sealingKeyFromBytes(bytes, name);
}

/** A fresh random key as base64, the format `parseSealingKey` reads (embedded mode generates one). */
export function generateSealingKey(): string {
  return encodeBase64(randomBytes(SEALING_KEY_BYTES));
}

function aad(associatedData: AssociatedData | undefined): Uint8Array {
  const bytes =
    typeof associatedData === 'string' ? utf8Encode(associatedData) : (associatedData ?? new Uint8Array());
  return concatBytes(AAD_DOMAIN, bytes);
}

/** AES-256-GCM with a random 96-bit nonce: `s1.<base64url(nonce ‖ ciphertext ‖ tag)>`. */
export function seal(key: SealingKey, plaintext: Uint8Array, associatedData?: AssociatedData): string {
  const nonce = randomBytes(NONCE_BYTES);
  const sealed = aesGcmEncrypt(key, nonce, aad(associatedData), plaintext);
  return `${VERSION}.${encodeBase64Url(concatBytes(nonce, sealed))}`;
}

/** Throws CryptoError: `unsupported_version`, `malformed_input`, or `authentication_failed` (wrong key/context/tampered). */
export function unseal(key: SealingKey, sealed: string, associatedData?: AssociatedData): Uint8Array {
  const dot = sealed.indexOf('.');
  if (dot < 0) {
    throw new CryptoError('malformed_input', 'sealed value has no version prefix');
  }
  if (sealed.slice(0, dot) !== VERSION) {
    throw new CryptoError(
      'unsupported_version',
      `unsupported sealed value version "${sealed.slice(0, dot)}"`,
    );
  }
  const bytes = decodeBase64(sealed.slice(dot + 1));
  if (!bytes || bytes.length < NONCE_BYTES + TAG_BYTES) {
    throw new CryptoError('malformed_input', 'sealed value is not valid base64url or is too short');
  }
  try {
    return aesGcmDecrypt(
      key,
      bytes.subarray(0, NONCE_BYTES),
      aad(associatedData),
      bytes.subarray(NONCE_BYTES),
    );
  } catch {
    throw new CryptoError('authentication_failed', 'sealed value does not open with this key and context');
  }
}

function amountContext(context: string): string {
  return `amount\0${context}`;
}

/** Seals a u64 amount in base units; `context` says what it is and where it belongs. */
export function sealAmount(key: SealingKey, amountBaseUnits: bigint, context: string): string {
  return seal(key, u64ToBytes(amountBaseUnits), amountContext(context));
}

export function unsealAmount(key: SealingKey, sealed: string, context: string): bigint {
  return u64FromBytes(unseal(key, sealed, amountContext(context)));
}
