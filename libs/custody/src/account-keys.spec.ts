import { createKeyPairFromPrivateKeyBytes, getAddressFromPublicKey } from '@solana/kit';
import { decodeBase64, zk } from '@cts/crypto';
import { derivePublicKeys, deriveOwnerAddress, generateAccountKeys } from './account-keys';

describe('generateAccountKeys', () => {
  it('returns a 32-byte seed, a 32-byte ElGamal secret and a 16-byte AE key', () => {
    const keys = generateAccountKeys();
    expect(keys.signingSeed).toHaveLength(32);
    expect(keys.elgamalSecret).toHaveLength(32);
    expect(keys.aeKey).toHaveLength(16);
  });

  it('never returns the same keys twice', () => {
    const a = generateAccountKeys();
    const b = generateAccountKeys();
    expect(a.signingSeed).not.toEqual(b.signingSeed);
    expect(a.elgamalSecret).not.toEqual(b.elgamalSecret);
    expect(a.aeKey).not.toEqual(b.aeKey);
  });

  it('produces keys zk-sdk accepts', () => {
    const keys = generateAccountKeys();
    const secret = zk.ElGamalSecretKey.fromBytes(keys.elgamalSecret);
    const ae = zk.AeKey.fromBytes(keys.aeKey);
    expect(ae.decrypt(ae.encrypt(7n))).toBe(7n);
    const keypair = zk.ElGamalKeypair.fromSecretKey(secret);
    expect(keypair.secret().decrypt(keypair.pubkey().encryptU64(9n))).toBe(9n);
  });
});

describe('derivePublicKeys', () => {
  it('gives the owner address @solana/kit derives from the same seed', async () => {
    const keys = generateAccountKeys();
    const keyPair = await createKeyPairFromPrivateKeyBytes(keys.signingSeed);
    expect(deriveOwnerAddress(keys.signingSeed)).toBe(await getAddressFromPublicKey(keyPair.publicKey));
  });

  it('gives the ElGamal public key zk-sdk derives, as base64', () => {
    const keys = generateAccountKeys();
    const expected = zk.ElGamalPubkey.fromSecretKey(
      zk.ElGamalSecretKey.fromBytes(keys.elgamalSecret),
    ).toBytes();
    expect(decodeBase64(derivePublicKeys(keys).elgamalPubkey)).toEqual(expected);
  });
});
