import { CryptoError, generateSealingKey, parseSealingKey } from '@cts/crypto';
import { generateAccountKeys } from './account-keys';
import { sealKeys, unsealKeys } from './sealed-keys';

const masterKey = parseSealingKey(generateSealingKey());
const keys = generateAccountKeys();
const sealed = sealKeys(masterKey, 'acct_1', 'test', keys);
const row = { accountId: 'acct_1', environment: 'test' as const, ...sealed };

function failureOf(fn: () => unknown): string {
  try {
    fn();
    return 'opened';
  } catch (error) {
    return error instanceof CryptoError ? error.code : 'other';
  }
}

describe('sealKeys / unsealKeys', () => {
  it('round-trips the key material', () => {
    expect(unsealKeys(masterKey, row)).toEqual(keys);
  });

  it('does not contain the key bytes in the clear', () => {
    const blob = Buffer.from(sealed.sealedKeys.slice(3), 'base64url');
    expect(blob.includes(Buffer.from(keys.elgamalSecret))).toBe(false);
    expect(blob.includes(Buffer.from(keys.signingSeed))).toBe(false);
  });

  it('fails under another master key', () => {
    expect(failureOf(() => unsealKeys(parseSealingKey(generateSealingKey()), row))).toBe(
      'authentication_failed',
    );
  });

  it('fails when the blob is moved to another account or environment', () => {
    expect(failureOf(() => unsealKeys(masterKey, { ...row, accountId: 'acct_2' }))).toBe(
      'authentication_failed',
    );
    expect(failureOf(() => unsealKeys(masterKey, { ...row, environment: 'live' }))).toBe(
      'authentication_failed',
    );
  });

  it('fails when a public column of the row was edited', () => {
    const other = sealKeys(masterKey, 'acct_1', 'test', generateAccountKeys());
    expect(failureOf(() => unsealKeys(masterKey, { ...row, ownerAddress: other.ownerAddress }))).toBe(
      'authentication_failed',
    );
    expect(failureOf(() => unsealKeys(masterKey, { ...row, elgamalPubkey: other.elgamalPubkey }))).toBe(
      'authentication_failed',
    );
  });

  it('refuses key material of the wrong size', () => {
    expect(() => sealKeys(masterKey, 'acct_1', 'test', { ...keys, aeKey: new Uint8Array(32) })).toThrow(
      CryptoError,
    );
  });
});
