import { ed25519 } from '@noble/curves/ed25519.js';
import { randomBytes } from '@noble/hashes/utils.js';
import { getAddressDecoder, type Address } from '@solana/kit';
import {
  SIGNING_SEED_BYTES,
  deriveElGamalPubkey,
  encodeBase64,
  zk,
  type AccountKeyMaterial,
  type DecryptionKeyMaterial,
} from '@cts/crypto';

/** The parts of an account's keys that may be shown and stored in the clear. */
export interface AccountPublicKeys {
  /** Base58 ed25519 public key: owner of the account's token accounts. */
  ownerAddress: Address;
  /** Base64 of the 32-byte ElGamal public key that balances and transfer amounts are encrypted under. */
  elgamalPubkey: string;
}

/**
 * Random keys: zk-sdk 0.4.1 cannot derive ElGamal/AE keys from a signer (`ConfidentialKeys.derive*`
 * throw), so custody is the only copy of them besides the holder's `decryption_key`.
 */
export function generateConfidentialKeys(): DecryptionKeyMaterial {
  const keypair = new zk.ElGamalKeypair();
  const secret = keypair.secret();
  const aeKey = new zk.AeKey();
  try {
    return { elgamalSecret: secret.toBytes(), aeKey: aeKey.toBytes() };
  } finally {
    secret.free();
    keypair.free();
    aeKey.free();
  }
}

export function generateAccountKeys(): AccountKeyMaterial {
  return { signingSeed: randomBytes(SIGNING_SEED_BYTES), ...generateConfidentialKeys() };
}

export function deriveOwnerAddress(signingSeed: Uint8Array): Address {
  return getAddressDecoder().decode(ed25519.getPublicKey(signingSeed));
}

export function derivePublicKeys(keys: AccountKeyMaterial): AccountPublicKeys {
  return {
    ownerAddress: deriveOwnerAddress(keys.signingSeed),
    elgamalPubkey: encodeBase64(deriveElGamalPubkey(keys.elgamalSecret)),
  };
}
