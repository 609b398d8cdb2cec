import { CryptoError, encodeBase64, encodeDecryptionKey, encryptMemo, zk } from '@cts/crypto';
import { decryptAmount } from './decrypt-amount';
import { decryptBalance } from './decrypt-balance';
import { decryptMemo } from './decrypt-memo';

function account() {
  const keypair = new zk.ElGamalKeypair();
  const aeKey = new zk.AeKey();
  return {
    decryptionKey: encodeDecryptionKey({ elgamalSecret: keypair.secret().toBytes(), aeKey: aeKey.toBytes() }),
    elgamalPubkey: keypair.pubkey().toBytes(),
    balance: (amount: bigint) => encodeBase64(keypair.pubkey().encryptU64(amount).toBytes()),
    aeEncrypt: (amount: bigint) => encodeBase64(aeKey.encrypt(amount).toBytes()),
  };
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
    return 'decrypted';
  } catch (error) {
    return error instanceof CryptoError ? error.code : 'other';
  }
}

const alice = account();
const bob = account();

describe('decryptBalance', () => {
  it('decrypts a balance ciphertext to a decimal string in asset units', () => {
    expect(decryptBalance(alice.decryptionKey, alice.balance(4_250_000n), 'USDC')).toBe('4.25');
    expect(decryptBalance(alice.decryptionKey, alice.balance(1_500_000_000n), 'SOL')).toBe('1.5');
    expect(decryptBalance(alice.decryptionKey, alice.balance(0n), 'USDC')).toBe('0');
  });

  it('reaches u32 base units (4294.967295 USDC) by discrete log alone', () => {
    expect(decryptBalance(alice.decryptionKey, alice.balance(2n ** 32n - 1n), 'USDC')).toBe('4294.967295');
  });

  it('cannot go beyond u32 without the decryptable balance, and says so', () => {
    expect(codeOf(() => decryptBalance(alice.decryptionKey, alice.balance(2n ** 32n), 'USDC'))).toBe(
      'not_decryptable',
    );
  });

  it('decrypts up to 1e9 USDC and beyond with the decryptable balance, checked against the ciphertext', () => {
    const amount = 10n ** 15n + 123_456n;
    const options = { decryptableBalance: alice.aeEncrypt(amount) };
    expect(decryptBalance(alice.decryptionKey, alice.balance(amount), 'USDC', options)).toBe(
      '1000000000.123456',
    );
  });

  it('takes a balance entry as the API returns it, large balances included', () => {
    const amount = 2n ** 32n + 1n;
    const entry = {
      asset: 'USDC',
      ciphertext: alice.balance(amount),
      decryptable_balance: alice.aeEncrypt(amount),
    };
    expect(decryptBalance(alice.decryptionKey, entry)).toBe('4294.967297');
    expect(codeOf(() => decryptBalance(alice.decryptionKey, { asset: 'USDC', has_balance: true }))).toBe(
      'malformed_input',
    );
  });

  it('refuses a decryptable balance that disagrees with the ciphertext', () => {
    const options = { decryptableBalance: alice.aeEncrypt(101n) };
    expect(codeOf(() => decryptBalance(alice.decryptionKey, alice.balance(100n), 'USDC', options))).toBe(
      'not_decryptable',
    );
  });

  it("does not decrypt another account's balance", () => {
    expect(codeOf(() => decryptBalance(bob.decryptionKey, alice.balance(5n), 'USDC'))).toBe(
      'not_decryptable',
    );
  });

  it('rejects a mistyped decryption key, an unknown asset and a malformed ciphertext', () => {
    const typo = alice.decryptionKey.slice(0, -1) + (alice.decryptionKey.endsWith('a') ? 'b' : 'a');
    expect(codeOf(() => decryptBalance(typo, alice.balance(5n), 'USDC'))).toMatch(
      /checksum_mismatch|malformed_input/,
    );
    expect(codeOf(() => decryptBalance(alice.decryptionKey, alice.balance(5n), 'EUR'))).toBe('unknown_asset');
    expect(codeOf(() => decryptBalance(alice.decryptionKey, 'AAAA', 'USDC'))).toBe('malformed_input');
    expect(
      codeOf(() => decryptBalance(alice.decryptionKey, encodeBase64(new Uint8Array(64).fill(255)), 'USDC')),
    ).toBe('malformed_input');
  });
});

describe('decryptAmount', () => {
  it('opens an encrypted_amount to a decimal string', () => {
    expect(decryptAmount(alice.decryptionKey, alice.aeEncrypt(12_345_678n), 'USDC')).toBe('12.345678');
    expect(decryptAmount(alice.decryptionKey, alice.aeEncrypt(2n ** 64n - 1n), 'SOL')).toBe(
      '18446744073.709551615',
    );
  });

  it("does not open another account's encrypted_amount", () => {
    expect(codeOf(() => decryptAmount(bob.decryptionKey, alice.aeEncrypt(1n), 'USDC'))).toBe(
      'authentication_failed',
    );
  });

  it('rejects input that is not an AE ciphertext', () => {
    expect(codeOf(() => decryptAmount(alice.decryptionKey, 'bm9wZQ==', 'USDC'))).toBe('malformed_input');
  });
});

describe('decryptMemo', () => {
  it('opens the memo copy addressed to this account only', () => {
    const memo = encryptMemo('rent for March', { sender: alice.elgamalPubkey, recipient: bob.elgamalPubkey });
    expect(decryptMemo(alice.decryptionKey, memo.sender)).toBe('rent for March');
    expect(decryptMemo(bob.decryptionKey, memo.recipient)).toBe('rent for March');
    expect(codeOf(() => decryptMemo(bob.decryptionKey, memo.sender))).toBe('authentication_failed');
  });
});
