import { type KeyObject, createHash, createPrivateKey, sign } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import {
  type Address,
  type SignatureBytes,
  type TransactionPartialSigner,
  getAddressDecoder,
} from '@solana/kit';

const addressDecoder = getAddressDecoder();
const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

const PUBLIC_KEYS = 10_000;
const publicKeys = new Map<string, { publicKey: Uint8Array; address: Address }>();

/**
 * The ed25519 public key of a seed and the address it is, derived with @noble/curves (≈ 0.4 ms of
 * CPU) and kept, bounded, under a SHA-256 of the seed (never the seed itself): accounts transact
 * again and again, and their public keys are public.
 */
export function publicKeyOf(seed: Uint8Array): { publicKey: Uint8Array; address: Address } {
  const digest = createHash('sha256').update(seed).digest('base64');
  let entry = publicKeys.get(digest);
  if (entry === undefined) {
    if (publicKeys.size >= PUBLIC_KEYS) {
      publicKeys.clear();
    }
    const publicKey = ed25519.getPublicKey(seed);
    entry = { publicKey, address: addressDecoder.decode(publicKey) };
    publicKeys.set(digest, entry);
  }
  return entry;
}

/**
 * An ed25519 signer over a 32-byte seed, signing with Node's crypto (OpenSSL) like kit's key pair
 * signer, but built without WebCrypto's PKCS#8 import: kit's `createKeyPairSignerFromPrivateKeyBytes`
 * costs ≈ 1.3 ms of CPU (OpenSSL's DER decoder, then exporting the public key), this ≈ 0.05 ms once
 * the public key is known (a raw JWK import). Every ledger operation opens one or two.
 */
export function seedSigner(seed: Uint8Array): TransactionPartialSigner {
  const { publicKey, address } = publicKeyOf(seed);
  const privateKey = createPrivateKey({
    format: 'jwk',
    key: { kty: 'OKP', crv: 'Ed25519', d: base64url(seed), x: base64url(publicKey) },
  });
  return signerOf(address, privateKey);
}

function signerOf(address: Address, privateKey: KeyObject): TransactionPartialSigner {
  return Object.freeze({
    address,
    signTransactions: (transactions) =>
      Promise.resolve(
        transactions.map((transaction) =>
          Object.freeze({
            [address]: new Uint8Array(
              sign(null, new Uint8Array(transaction.messageBytes), privateKey),
            ) as SignatureBytes,
          }),
        ),
      ),
  });
}

const OPERATOR_SIGNERS = 8;
const operatorSigners = new Map<string, TransactionPartialSigner>();

/**
 * The operator's keys (fee payer, mint authority) sign every operation: their signers are kept, keyed
 * by a digest of the seed (never the seed itself). Account keys are opened per operation instead.
 */
export function operatorSigner(seed: Uint8Array): TransactionPartialSigner {
  const digest = createHash('sha256').update(seed).digest('base64');
  let signer = operatorSigners.get(digest);
  if (signer === undefined) {
    if (operatorSigners.size >= OPERATOR_SIGNERS) {
      operatorSigners.clear();
    }
    signer = seedSigner(seed);
    operatorSigners.set(digest, signer);
  }
  return signer;
}
