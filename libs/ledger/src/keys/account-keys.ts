import { randomBytes } from 'node:crypto';
import { zk } from '@cts/crypto';
import { type Address, type TransactionPartialSigner } from '@solana/kit';
import { LedgerError } from '../ledger.errors';
import { type AccountKeyMaterial } from '../ledger.port';
import { publicKeyOf, seedSigner } from './seed-signer';

type ZkSdk = typeof zk;
export type ElGamalKeypair = InstanceType<ZkSdk['ElGamalKeypair']>;
export type AeKey = InstanceType<ZkSdk['AeKey']>;

/** Live key objects rebuilt from bytes for one operation. */
export interface OpenedAccountKeys {
  signer: TransactionPartialSigner;
  elgamal: ElGamalKeypair;
  ae: AeKey;
}

const KEY_LENGTHS = { signingSeed: 32, elgamalSecret: 32, aeKey: 16 } as const;

export function assertKeyMaterial(keys: AccountKeyMaterial): void {
  for (const [field, length] of Object.entries(KEY_LENGTHS) as [keyof AccountKeyMaterial, number][]) {
    if (!(keys[field] instanceof Uint8Array) || keys[field].length !== length) {
      throw new LedgerError('invalid_key_material', `${field} must be ${length} bytes`);
    }
  }
}

// WARNING: wasm-bindgen objects are consumed when passed inside arrays; build fresh ones per operation.
export function openAccountKeys(keys: AccountKeyMaterial): OpenedAccountKeys {
  assertKeyMaterial(keys);
  const signer = seedSigner(keys.signingSeed);
  return { signer, elgamal: elgamalKeypairOf(keys), ae: zk.AeKey.fromBytes(keys.aeKey) };
}

export function elgamalKeypairOf(keys: AccountKeyMaterial): ElGamalKeypair {
  return zk.ElGamalKeypair.fromSecretKey(zk.ElGamalSecretKey.fromBytes(keys.elgamalSecret));
}

/**
 * The owner's address is its ed25519 public key: derived with @noble/curves rather than through a
 * WebCrypto key pair (≈ 2 ms), on the main thread of every ledger operation, and remembered.
 */
export function ownerAddressOf(keys: AccountKeyMaterial): Promise<Address> {
  assertKeyMaterial(keys);
  return Promise.resolve(publicKeyOf(keys.signingSeed).address);
}

export function elgamalPubkeyOf(keys: AccountKeyMaterial): Uint8Array {
  assertKeyMaterial(keys);
  return elgamalKeypairOf(keys).pubkey().toBytes();
}

/** Fresh random key material (custody generates and seals it; tests use it directly). */
export function generateAccountKeyMaterial(): AccountKeyMaterial {
  return {
    signingSeed: new Uint8Array(randomBytes(32)),
    elgamalSecret: new zk.ElGamalKeypair().secret().toBytes(),
    aeKey: new zk.AeKey().toBytes(),
  };
}
