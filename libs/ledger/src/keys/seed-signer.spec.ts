import { randomBytes } from 'node:crypto';
import {
  type TransactionMessageBytes,
  createKeyPairSignerFromPrivateKeyBytes,
  signBytes,
  verifySignature,
} from '@solana/kit';
import { operatorSigner, seedSigner } from './seed-signer';

describe('seed signer', () => {
  it('has the address of kit key pair signer from the same seed and signs what its public key verifies', async () => {
    const seeds = Array.from({ length: 3 }, () => new Uint8Array(randomBytes(32)));
    // Each seed twice: opened from scratch, then with its public key remembered.
    for (const seed of [...seeds, ...seeds]) {
      const reference = await createKeyPairSignerFromPrivateKeyBytes(seed);
      const signer = seedSigner(new Uint8Array(seed));
      expect(signer.address).toBe(reference.address);
      const messageBytes = new Uint8Array(randomBytes(200)) as unknown as TransactionMessageBytes;
      const [signatures] = await signer.signTransactions([
        { messageBytes, signatures: {}, lifetimeConstraint: { blockhash: '', lastValidBlockHeight: 0n } },
      ] as unknown as Parameters<typeof signer.signTransactions>[0]);
      const signature = signatures?.[signer.address];
      if (signature === undefined) {
        throw new Error('no signature');
      }
      expect(await verifySignature(reference.keyPair.publicKey, signature, messageBytes)).toBe(true);
      // Ed25519 is deterministic: the same key signs the same bytes identically.
      expect(signature).toEqual(await signBytes(reference.keyPair.privateKey, messageBytes));
    }
  });

  it('keeps one signer per operator seed', () => {
    const seed = new Uint8Array(randomBytes(32));
    expect(operatorSigner(seed)).toBe(operatorSigner(new Uint8Array(seed)));
    expect(operatorSigner(new Uint8Array(randomBytes(32))).address).not.toBe(operatorSigner(seed).address);
  });
});
