import { ristretto255 } from '@noble/curves/ed25519.js';
import { bytesToNumberLE, randomBytes } from '@noble/curves/utils.js';
import { CryptoError } from './crypto-error';
import { concatBytes } from './encoding';
import { assertU64 } from './u64';

// zk-sdk's twisted ElGamal: secret s, public key P = s⁻¹·H, ciphertext (C, D) = (x·G + r·H, r·P).
// The holder of s recovers x·G = C − s·D; x itself then needs a discrete log.
const Point = ristretto255.Point;
export type RistrettoPoint = InstanceType<typeof ristretto255.Point>;

export const ELGAMAL_SECRET_BYTES = 32;
export const ELGAMAL_PUBKEY_BYTES = 32;
export const ELGAMAL_CIPHERTEXT_BYTES = 64;

/**
 * Pedersen generator H = ristretto from_uniform_bytes(SHA3-512(G)), as in solana-zk-sdk. Kept as a
 * constant (checked against zk-sdk and the derivation in tests) to avoid hashing at load time.
 */
export const PEDERSEN_H: RistrettoPoint = Point.fromHex(
  '8c9240b456a9e6dc65c377a1048d745f94a08cdb7f44cbcd7b46f34048871134',
);

export function decodePoint(bytes: Uint8Array): RistrettoPoint | undefined {
  if (bytes.length !== 32) {
    return undefined;
  }
  try {
    return Point.fromBytes(bytes);
  } catch {
    return undefined;
  }
}

/** The secret as zk-sdk stores it: a canonical little-endian scalar. Zero is refused (zk-sdk accepts it). */
export function elgamalSecretScalar(secret: Uint8Array): bigint {
  if (secret.length !== ELGAMAL_SECRET_BYTES) {
    throw new CryptoError(
      'invalid_key',
      `ElGamal secret must be ${ELGAMAL_SECRET_BYTES} bytes, got ${secret.length}`,
    );
  }
  let scalar: bigint;
  try {
    scalar = Point.Fn.fromBytes(secret);
  } catch {
    throw new CryptoError('invalid_key', 'ElGamal secret is not a canonical scalar');
  }
  if (scalar === 0n) {
    throw new CryptoError('invalid_key', 'ElGamal secret is zero');
  }
  return scalar;
}

export function deriveElGamalPubkey(secret: Uint8Array): Uint8Array {
  return PEDERSEN_H.multiply(Point.Fn.inv(elgamalSecretScalar(secret))).toBytes();
}

export function amountPoint(amount: bigint): RistrettoPoint {
  assertU64(amount);
  return amount === 0n ? Point.ZERO : Point.BASE.multiply(amount);
}

interface CiphertextPoints {
  commitment: RistrettoPoint;
  handle: RistrettoPoint;
}

export function decodeCiphertext(ciphertext: Uint8Array): CiphertextPoints | undefined {
  if (ciphertext.length !== ELGAMAL_CIPHERTEXT_BYTES) {
    return undefined;
  }
  const commitment = decodePoint(ciphertext.subarray(0, 32));
  const handle = decodePoint(ciphertext.subarray(32));
  return commitment && handle ? { commitment, handle } : undefined;
}

/** (C − a·G, D): encrypts zero exactly when (C, D) encrypts a. Undefined for a malformed ciphertext. */
export function subtractAmount(ciphertext: Uint8Array, amount: bigint): Uint8Array | undefined {
  const points = decodeCiphertext(ciphertext);
  if (!points) {
    return undefined;
  }
  return concatBytes(points.commitment.subtract(amountPoint(amount)).toBytes(), ciphertext.subarray(32));
}

/**
 * Whether (C, D) encrypts `amount` under the secret's key: one scalar multiplication, no discrete
 * log. Lets a client confirm an amount it learned elsewhere (the AE copy of a balance).
 */
export function ciphertextEncrypts(secret: Uint8Array, ciphertext: Uint8Array, amount: bigint): boolean {
  const points = decodeCiphertext(ciphertext);
  if (!points) {
    throw new CryptoError(
      'malformed_input',
      `ElGamal ciphertext must be ${ELGAMAL_CIPHERTEXT_BYTES} valid bytes`,
    );
  }
  const message = points.commitment.subtract(points.handle.multiply(elgamalSecretScalar(secret)));
  return message.equals(amountPoint(amount));
}

/** A fresh ElGamal secret (uniform non-zero scalar), e.g. a one-time key to receive a secret on. */
export function generateElGamalSecret(): Uint8Array {
  for (;;) {
    const scalar = Point.Fn.create(bytesToNumberLE(randomBytes(64)));
    if (scalar !== 0n) {
      return Point.Fn.toBytes(scalar);
    }
  }
}
