import fc from 'fast-check';
import { CryptoError } from './crypto-error';
import { encodeBase64 } from './encoding';
import {
  generateSealingKey,
  parseSealingKey,
  seal,
  sealAmount,
  sealingKeyFromBytes,
  unseal,
  unsealAmount,
} from './sealing';
import { U64_MAX } from './u64';

const key = parseSealingKey(generateSealingKey());
const otherKey = parseSealingKey(generateSealingKey());
const bytes = (text: string) => new TextEncoder().encode(text);

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof CryptoError ? error.code : 'not a CryptoError';
  }
}

describe('parseSealingKey', () => {
  it('accepts base64 of 32 bytes, with surrounding whitespace from env files', () => {
    const raw = new Uint8Array(32).fill(7);
    expect(parseSealingKey(` ${encodeBase64(raw)}\n`)).toEqual(raw);
  });

  it('names the setting and the wrong length in the error', () => {
    expect(() => parseSealingKey(encodeBase64(new Uint8Array(31)), 'CUSTODY_MASTER_KEY')).toThrow(
      'CUSTODY_MASTER_KEY must be 32 bytes, got 31',
    );
    expect(() => parseSealingKey(encodeBase64(new Uint8Array(33)), 'CUSTODY_MASTER_KEY')).toThrow('got 33');
  });

  it('rejects a missing or non-base64 key', () => {
    expect(() => parseSealingKey(undefined, 'CUSTODY_MASTER_KEY')).toThrow('CUSTODY_MASTER_KEY is not set');
    expect(() => parseSealingKey('   ')).toThrow('is not set');
    expect(() => parseSealingKey('not base64 at all!')).toThrow('is not valid base64');
  });

  it('generates distinct 32-byte keys', () => {
    expect(parseSealingKey(generateSealingKey())).toHaveLength(32);
    expect(generateSealingKey()).not.toEqual(generateSealingKey());
  });

  it('copies the bytes so later changes to the source do not alter the key', () => {
    const raw = new Uint8Array(32).fill(1);
    const parsed = sealingKeyFromBytes(raw);
    raw.fill(0);
    expect(parsed[0]).toBe(1);
  });
});

describe('seal / unseal', () => {
  it('round-trips any plaintext with its associated data', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.string(), (plaintext, context) => {
        expect(unseal(key, seal(key, plaintext, context), context)).toEqual(plaintext);
      }),
      { numRuns: 50 },
    );
  });

  it('produces a compact versioned string with a fresh nonce each time', () => {
    const a = seal(key, bytes('same'), 'ctx');
    const b = seal(key, bytes('same'), 'ctx');
    expect(a).toMatch(/^s1\.[A-Za-z0-9_-]+$/);
    expect(a).not.toEqual(b);
    // 12-byte nonce + 4-byte plaintext + 16-byte tag = 32 bytes = 43 base64url characters.
    expect(a.length).toBe('s1.'.length + 43);
  });

  it('fails to open a value moved to another context (row)', () => {
    const sealed = seal(key, bytes('secret'), 'acct_1|live');
    expect(codeOf(() => unseal(key, sealed, 'acct_2|live'))).toBe('authentication_failed');
    expect(codeOf(() => unseal(key, sealed, 'acct_1|test'))).toBe('authentication_failed');
    expect(codeOf(() => unseal(key, sealed))).toBe('authentication_failed');
  });

  it('treats string and byte associated data alike', () => {
    expect(unseal(key, seal(key, bytes('x'), 'ctx'), bytes('ctx'))).toEqual(bytes('x'));
  });

  it('fails with another key', () => {
    expect(codeOf(() => unseal(otherKey, seal(key, bytes('secret'))))).toBe('authentication_failed');
  });

  it('detects any flipped bit', () => {
    const sealed = seal(key, bytes('secret'), 'ctx');
    const body = Buffer.from(sealed.slice(3), 'base64url');
    for (let i = 0; i < body.length; i++) {
      const tampered = Buffer.from(body);
      tampered[i] ^= 1;
      expect(codeOf(() => unseal(key, `s1.${tampered.toString('base64url')}`, 'ctx'))).toBe(
        'authentication_failed',
      );
    }
  });

  it('reports unknown versions and malformed strings distinctly', () => {
    const sealed = seal(key, bytes('secret'));
    expect(codeOf(() => unseal(key, `s2${sealed.slice(2)}`))).toBe('unsupported_version');
    expect(codeOf(() => unseal(key, 'no-dot'))).toBe('malformed_input');
    expect(codeOf(() => unseal(key, 's1.!!!'))).toBe('malformed_input');
    expect(codeOf(() => unseal(key, 's1.AAAA'))).toBe('malformed_input');
  });
});

describe('sealAmount / unsealAmount', () => {
  it('round-trips any u64 amount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: U64_MAX }), (amount) => {
        expect(unsealAmount(key, sealAmount(key, amount, 'ctx'), 'ctx')).toBe(amount);
      }),
      { numRuns: 50 },
    );
  });

  it('hides the amount: equal amounts seal differently and lengths do not depend on size', () => {
    const small = sealAmount(key, 1n, 'ctx');
    const large = sealAmount(key, U64_MAX, 'ctx');
    expect(small.length).toBe(large.length);
    expect(sealAmount(key, 1n, 'ctx')).not.toBe(small);
  });

  it('refuses amounts outside u64', () => {
    expect(codeOf(() => sealAmount(key, -1n, 'ctx'))).toBe('amount_out_of_range');
    expect(codeOf(() => sealAmount(key, U64_MAX + 1n, 'ctx'))).toBe('amount_out_of_range');
  });

  it('is bound to its context and is not interchangeable with a plain sealed value', () => {
    const sealed = sealAmount(key, 5n, 'transfer.create|acct_1|test');
    expect(codeOf(() => unsealAmount(key, sealed, 'transfer.create|acct_2|test'))).toBe(
      'authentication_failed',
    );
    expect(codeOf(() => unseal(key, sealed, 'transfer.create|acct_1|test'))).toBe('authentication_failed');
  });
});
