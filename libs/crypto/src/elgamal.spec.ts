import { ristretto255, ristretto255_hasher } from '@noble/curves/ed25519.js';
import { sha3_512 } from '@noble/hashes/sha3.js';
import fc from 'fast-check';
import { CryptoError } from './crypto-error';
import {
  PEDERSEN_H,
  ciphertextEncrypts,
  deriveElGamalPubkey,
  elgamalSecretScalar,
  subtractAmount,
} from './elgamal';
import { U64_MAX } from './u64';
import { zk } from './zk-sdk';

const scalarBytes = (value: number) => {
  const bytes = new Uint8Array(32);
  bytes[0] = value;
  return bytes;
};

describe('ElGamal helpers (noble) agree with zk-sdk', () => {
  it('uses zk-sdk Pedersen H: the public key of secret 1, and from_uniform_bytes(SHA3-512(G))', () => {
    const pubkeyOfOne = zk.ElGamalPubkey.fromSecretKey(zk.ElGamalSecretKey.fromBytes(scalarBytes(1)));
    expect(PEDERSEN_H.toBytes()).toEqual(pubkeyOfOne.toBytes());
    const derive = ristretto255_hasher.deriveToCurve;
    expect(derive?.(sha3_512(ristretto255.Point.BASE.toBytes())).toBytes()).toEqual(PEDERSEN_H.toBytes());
  });

  it('derives the same public key as zk-sdk (P = s⁻¹·H)', () => {
    for (let i = 0; i < 5; i++) {
      const keypair = new zk.ElGamalKeypair();
      expect(deriveElGamalPubkey(keypair.secret().toBytes())).toEqual(keypair.pubkey().toBytes());
    }
  });

  it('recognises the amount a zk-sdk ciphertext encrypts, and nothing else', () => {
    const keypair = new zk.ElGamalKeypair();
    const secret = keypair.secret().toBytes();
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: U64_MAX - 1n }), (amount) => {
        const ciphertext = keypair.pubkey().encryptU64(amount).toBytes();
        return (
          ciphertextEncrypts(secret, ciphertext, amount) &&
          !ciphertextEncrypts(secret, ciphertext, amount + 1n)
        );
      }),
      { numRuns: 20 },
    );
  });

  it('subtracting the encrypted amount leaves an encryption of zero', () => {
    const keypair = new zk.ElGamalKeypair();
    const ciphertext = keypair.pubkey().encryptU64(1234n).toBytes();
    const shifted = subtractAmount(ciphertext, 1234n);
    expect(shifted).toBeDefined();
    const zero = zk.ElGamalCiphertext.fromBytes(shifted ?? new Uint8Array());
    expect(zero && keypair.secret().decrypt(zero)).toBe(0n);
    expect(subtractAmount(ciphertext, 0n)).toEqual(ciphertext);
  });

  it('returns undefined for a ciphertext that is not two ristretto points', () => {
    expect(subtractAmount(new Uint8Array(64).fill(0xff), 1n)).toBeUndefined();
    expect(subtractAmount(new Uint8Array(63), 1n)).toBeUndefined();
  });
});

describe('elgamalSecretScalar', () => {
  it('rejects zero, non-canonical and wrong-length secrets', () => {
    const code = (secret: Uint8Array) => {
      try {
        elgamalSecretScalar(secret);
        return 'accepted';
      } catch (error) {
        return error instanceof CryptoError ? error.code : 'other';
      }
    };
    expect(code(new Uint8Array(32))).toBe('invalid_key');
    expect(code(new Uint8Array(32).fill(0xff))).toBe('invalid_key');
    expect(code(new Uint8Array(31))).toBe('invalid_key');
    expect(code(scalarBytes(7))).toBe('accepted');
  });
});
