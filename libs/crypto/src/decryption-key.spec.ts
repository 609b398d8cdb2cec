import { CryptoError } from './crypto-error';
import { encodeDecryptionKey, parseDecryptionKey } from './decryption-key';
import { zk } from './zk-sdk';

function freshKeys() {
  return { elgamalSecret: new zk.ElGamalKeypair().secret().toBytes(), aeKey: new zk.AeKey().toBytes() };
}

function codeOf(text: string): string {
  try {
    parseDecryptionKey(text);
    return 'accepted';
  } catch (error) {
    return error instanceof CryptoError ? error.code : 'other';
  }
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

describe('decryption_key format', () => {
  it('round-trips the ElGamal secret and AE key as dk1_<base58>', () => {
    const keys = freshKeys();
    const text = encodeDecryptionKey(keys);
    expect(text).toMatch(/^dk1_[1-9A-HJ-NP-Za-km-z]{60,80}$/);
    expect(parseDecryptionKey(text)).toEqual(keys);
  });

  it('tolerates whitespace from copy-paste', () => {
    const keys = freshKeys();
    expect(parseDecryptionKey(`  ${encodeDecryptionKey(keys)}\n`)).toEqual(keys);
  });

  it('catches every single-character typo with the checksum', () => {
    const text = encodeDecryptionKey(freshKeys());
    for (let i = 4; i < text.length; i++) {
      const replacement = BASE58[(BASE58.indexOf(text[i]) + 1) % BASE58.length];
      const typo = text.slice(0, i) + replacement + text.slice(i + 1);
      expect(['checksum_mismatch', 'malformed_input']).toContain(codeOf(typo));
    }
  });

  it('catches a swap of two adjacent characters', () => {
    const text = encodeDecryptionKey(freshKeys());
    const i = [...text].findIndex((char, j) => j >= 4 && j + 1 < text.length && char !== text[j + 1]);
    const swapped = text.slice(0, i) + text[i + 1] + text[i] + text.slice(i + 2);
    expect(codeOf(swapped)).toMatch(/checksum_mismatch|malformed_input/);
  });

  it('rejects truncation, foreign characters, other prefixes and versions clearly', () => {
    const text = encodeDecryptionKey(freshKeys());
    expect(codeOf(text.slice(0, -1))).toMatch(/checksum_mismatch|malformed_input/);
    expect(codeOf(`${text.slice(0, 10)}0${text.slice(11)}`)).toBe('malformed_input');
    expect(codeOf(text.replace('dk1_', 'dk2_'))).toBe('unsupported_version');
    expect(codeOf(text.replace('dk1_', ''))).toBe('malformed_input');
    expect(codeOf('svc_test_abc')).toBe('malformed_input');
  });

  it('refuses to encode a zero ElGamal secret or a short AE key', () => {
    expect(() =>
      encodeDecryptionKey({ elgamalSecret: new Uint8Array(32), aeKey: new Uint8Array(16) }),
    ).toThrow(CryptoError);
    expect(() => encodeDecryptionKey({ ...freshKeys(), aeKey: new Uint8Array(15) })).toThrow(
      'AE key must be 16 bytes',
    );
  });
});
