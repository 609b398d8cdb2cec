import fc from 'fast-check';
import { CryptoError } from './crypto-error';
import { MEMO_MAX_BYTES, decryptMemo, encryptMemo, encryptMemoFor } from './memo';
import { zk } from './zk-sdk';

function party() {
  const keypair = new zk.ElGamalKeypair();
  return { secret: keypair.secret().toBytes(), pubkey: keypair.pubkey().toBytes() };
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
    return 'opened';
  } catch (error) {
    return error instanceof CryptoError ? error.code : 'other';
  }
}

describe('memo encryption', () => {
  const sender = party();
  const recipient = party();
  const outsider = party();
  const memo = 'Invoice #42 — café ☕';
  const encrypted = encryptMemo(memo, { sender: sender.pubkey, recipient: recipient.pubkey });

  it('lets the sender and the recipient each read their copy', () => {
    expect(decryptMemo(sender.secret, encrypted.sender)).toBe(memo);
    expect(decryptMemo(recipient.secret, encrypted.recipient)).toBe(memo);
  });

  it('keeps both copies closed to anyone else, including the other party', () => {
    expect(codeOf(() => decryptMemo(outsider.secret, encrypted.sender))).toBe('authentication_failed');
    expect(codeOf(() => decryptMemo(outsider.secret, encrypted.recipient))).toBe('authentication_failed');
    expect(codeOf(() => decryptMemo(recipient.secret, encrypted.sender))).toBe('authentication_failed');
    expect(codeOf(() => decryptMemo(sender.secret, encrypted.recipient))).toBe('authentication_failed');
  });

  it('does not reveal the memo or repeat itself across encryptions', () => {
    const again = encryptMemoFor(recipient.pubkey, memo);
    expect(again).not.toBe(encrypted.recipient);
    expect(again).toMatch(/^m1\.[A-Za-z0-9_-]+$/);
    expect(Buffer.from(again.slice(3), 'base64url').toString('utf8')).not.toContain('Invoice');
  });

  it('round-trips any text up to the limit', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        expect(decryptMemo(recipient.secret, encryptMemoFor(recipient.pubkey, text))).toBe(text);
      }),
      { numRuns: 30 },
    );
  });

  it('refuses memos above the byte limit and invalid public keys', () => {
    expect(() => encryptMemoFor(recipient.pubkey, 'x'.repeat(MEMO_MAX_BYTES + 1))).toThrow('longer than');
    expect(encryptMemoFor(recipient.pubkey, 'x'.repeat(MEMO_MAX_BYTES))).toMatch(/^m1\./);
    expect(codeOf(() => encryptMemoFor(new Uint8Array(32).fill(0xff), 'hi'))).toBe('invalid_key');
    expect(codeOf(() => encryptMemoFor(new Uint8Array(32), 'hi'))).toBe('invalid_key');
  });

  it('detects tampering and reports malformed input distinctly', () => {
    const body = Buffer.from(encrypted.recipient.slice(3), 'base64url');
    body[body.length - 1] ^= 1;
    expect(codeOf(() => decryptMemo(recipient.secret, `m1.${body.toString('base64url')}`))).toBe(
      'authentication_failed',
    );
    expect(codeOf(() => decryptMemo(recipient.secret, 'm2.AAAA'))).toBe('unsupported_version');
    expect(codeOf(() => decryptMemo(recipient.secret, 'hello'))).toBe('malformed_input');
    expect(codeOf(() => decryptMemo(recipient.secret, 'm1.AAAA'))).toBe('malformed_input');
    expect(codeOf(() => decryptMemo(recipient.secret, `m1.${Buffer.alloc(60).toString('base64url')}`))).toBe(
      'malformed_input',
    );
  });
});
