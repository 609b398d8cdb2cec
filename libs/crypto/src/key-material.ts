/**
 * Everything that controls one account on one ledger. Shared contract between custody (which seals
 * it) and the ledger (which signs and proves with it). WARNING: changing this shape changes the
 * sealed custody format — bump the custody record version.
 */
export interface AccountKeyMaterial {
  /** 32-byte ed25519 seed: the token account owner's signing key. */
  signingSeed: Uint8Array;
  /** 32-byte ElGamal secret (zk-sdk `ElGamalSecretKey.toBytes()`). */
  elgamalSecret: Uint8Array;
  /** 16-byte authenticated-encryption key (zk-sdk `AeKey.toBytes()`). */
  aeKey: Uint8Array;
}

/** What the account holder gets (as the `decryption_key` string): reads amounts, cannot sign. */
export type DecryptionKeyMaterial = Pick<AccountKeyMaterial, 'elgamalSecret' | 'aeKey'>;

export const SIGNING_SEED_BYTES = 32;
export const AE_KEY_BYTES = 16;
