import { zk } from './zk-sdk';

describe('zk-sdk loader', () => {
  it('encrypts and decrypts with one shared wasm instance', () => {
    const keypair = new zk.ElGamalKeypair();
    const ciphertext = keypair.pubkey().encryptU64(42n);
    expect(keypair.secret().decrypt(ciphertext)).toBe(42n);
  });

  it('serves token-2022 confidential helpers the same instance', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const confidential = require('@solana-program/token-2022/confidential') as Record<string, unknown>;
    expect(typeof confidential.getConfidentialTransferInstructionPlan).toBe('function');
  });
});
