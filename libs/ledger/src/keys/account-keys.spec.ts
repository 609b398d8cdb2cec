import { zk } from '@cts/crypto';
import {
  assertKeyMaterial,
  elgamalPubkeyOf,
  generateAccountKeyMaterial,
  openAccountKeys,
  ownerAddressOf,
} from './account-keys';

describe('account keys', () => {
  it('rebuilds the same ElGamal keypair, AE key and owner from the bytes every time', async () => {
    const keys = generateAccountKeyMaterial();
    const [first, second] = [openAccountKeys(keys), openAccountKeys(keys)];
    expect(first.signer.address).toBe(second.signer.address);
    expect(await ownerAddressOf(keys)).toBe(first.signer.address);
    for (const other of [generateAccountKeyMaterial(), generateAccountKeyMaterial()]) {
      expect(await ownerAddressOf(other)).toBe(openAccountKeys(other).signer.address);
    }
    expect(first.elgamal.pubkey().toBytes()).toEqual(elgamalPubkeyOf(keys));
    const ciphertext = first.elgamal.pubkey().encryptU64(42n);
    expect(second.elgamal.secret().decrypt(ciphertext)).toBe(42n);
    const sealed = first.ae.encrypt(7n);
    expect(second.ae.decrypt(zk.AeCiphertext.fromBytes(sealed.toBytes()) ?? sealed)).toBe(7n);
  });

  it('rejects key material of the wrong sizes', () => {
    const keys = generateAccountKeyMaterial();
    expect(() => assertKeyMaterial({ ...keys, aeKey: new Uint8Array(32) })).toThrow(
      expect.objectContaining({ code: 'invalid_key_material' }) as Error,
    );
    expect(() => assertKeyMaterial({ ...keys, signingSeed: new Uint8Array(31) })).toThrow(
      'signingSeed must be 32 bytes',
    );
  });
});
