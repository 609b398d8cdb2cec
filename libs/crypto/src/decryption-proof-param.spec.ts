import fc from 'fast-check';
import {
  DECRYPTION_PROOF_MAX_ENTRIES,
  DECRYPTION_PROOF_PARAM_MAX_LENGTH,
  encodeDecryptionProofParam,
  parseDecryptionProofParam,
} from './decryption-proof-param';

const DECIMALS: Record<string, number> = { USDC: 6, SOL: 9 };
const decimalsOf = (asset: string) => DECIMALS[asset];
const proof = new Uint8Array(192).fill(3);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
const entry = (overrides: Record<string, unknown> = {}) => ({
  asset: 'USDC',
  amount: '12.5',
  proof: Buffer.from(proof).toString('base64'),
  ...overrides,
});
const reasonOf = (raw: string) => {
  const result = parseDecryptionProofParam(raw, decimalsOf);
  return result.ok ? 'ok' : result.error.reason;
};

describe('parseDecryptionProofParam', () => {
  it('parses the standard-base64 form of ARCHITECTURE §6 into base units', () => {
    const raw = b64({ v: 1, proofs: [entry(), entry({ asset: 'SOL', amount: '0' })] });
    expect(parseDecryptionProofParam(raw, decimalsOf)).toEqual({
      ok: true,
      entries: [
        { asset: 'USDC', amount: 12_500_000n, proof },
        { asset: 'SOL', amount: 0n, proof },
      ],
    });
  });

  it('reads what the SDK encoder writes (base64url, no padding)', () => {
    const raw = encodeDecryptionProofParam([{ asset: 'SOL', amount: '1.000000001', proof }]);
    expect(raw).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(parseDecryptionProofParam(raw, decimalsOf)).toEqual({
      ok: true,
      entries: [{ asset: 'SOL', amount: 1_000_000_001n, proof }],
    });
  });

  it('round-trips any valid entry list', () => {
    const wireEntry = fc.record({
      asset: fc.constantFrom('USDC', 'SOL'),
      amount: fc.bigInt({ min: 0n, max: 10n ** 9n }).map(String),
      proof: fc.uint8Array({ minLength: 192, maxLength: 192 }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(wireEntry, { minLength: 1, maxLength: 2, selector: (e) => e.asset }),
        (entries) => {
          const parsed = parseDecryptionProofParam(encodeDecryptionProofParam(entries), decimalsOf);
          expect(parsed.ok && parsed.entries.map((e) => [e.asset, e.amount, e.proof])).toEqual(
            entries.map((e) => [e.asset, BigInt(e.amount) * 10n ** BigInt(DECIMALS[e.asset]), e.proof]),
          );
        },
      ),
      { numRuns: 30 },
    );
  });

  it.each([
    ['not base64', '%%%', 'invalid_base64'],
    ['not JSON', Buffer.from('{nope').toString('base64'), 'invalid_json'],
    ['not UTF-8', Buffer.from([0xff, 0xfe]).toString('base64'), 'invalid_json'],
    ['an array', b64([]), 'invalid_shape'],
    ['missing proofs', b64({ v: 1 }), 'invalid_shape'],
    ['extra top-level field', b64({ v: 1, proofs: [entry()], x: 1 }), 'invalid_shape'],
    ['proofs not an array', b64({ v: 1, proofs: {} }), 'invalid_shape'],
    ['version 2', b64({ v: 2, proofs: [entry()] }), 'unsupported_version'],
    ['version as string', b64({ v: '1', proofs: [entry()] }), 'unsupported_version'],
    ['no proofs', b64({ v: 1, proofs: [] }), 'empty'],
    ['entry not an object', b64({ v: 1, proofs: ['x'] }), 'invalid_shape'],
    ['entry with extra field', b64({ v: 1, proofs: [entry({ extra: 1 })] }), 'invalid_shape'],
    ['amount as number', b64({ v: 1, proofs: [entry({ amount: 12.5 })] }), 'invalid_shape'],
    ['unknown asset', b64({ v: 1, proofs: [entry({ asset: 'usdc' })] }), 'unknown_asset'],
    ['negative amount', b64({ v: 1, proofs: [entry({ amount: '-1' })] }), 'invalid_amount'],
    ['exponent amount', b64({ v: 1, proofs: [entry({ amount: '1e3' })] }), 'invalid_amount'],
    ['too many decimals', b64({ v: 1, proofs: [entry({ amount: '0.0000001' })] }), 'invalid_amount'],
    ['proof not base64', b64({ v: 1, proofs: [entry({ proof: '***' })] }), 'invalid_proof'],
    [
      'proof too short',
      b64({ v: 1, proofs: [entry({ proof: Buffer.alloc(191).toString('base64') })] }),
      'invalid_proof',
    ],
    ['same asset twice', b64({ v: 1, proofs: [entry(), entry({ amount: '1' })] }), 'duplicate_asset'],
  ])('rejects %s', (_name, raw, reason) => {
    expect(reasonOf(raw)).toBe(reason);
  });

  it('says which entry failed', () => {
    const result = parseDecryptionProofParam(
      b64({ v: 1, proofs: [entry(), entry({ asset: 'SOL', amount: 'x' })] }),
      decimalsOf,
    );
    expect(result).toMatchObject({ ok: false, error: { reason: 'invalid_amount', index: 1 } });
  });

  it('refuses oversized input before decoding it', () => {
    expect(reasonOf('A'.repeat(DECRYPTION_PROOF_PARAM_MAX_LENGTH + 1))).toBe('too_long');
    const many = Array.from({ length: DECRYPTION_PROOF_MAX_ENTRIES + 1 }, () => ({
      asset: 'X',
      amount: '1',
      proof: '',
    }));
    expect(reasonOf(b64({ v: 1, proofs: many }))).toBe('too_many_entries');
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json().map((json) => Buffer.from(json).toString('base64')),
        ),
        (raw) => {
          expect(() => parseDecryptionProofParam(raw, decimalsOf)).not.toThrow();
        },
      ),
    );
  });
});

describe('encodeDecryptionProofParam', () => {
  it('refuses an empty proof list', () => {
    expect(() => encodeDecryptionProofParam([])).toThrow(RangeError);
  });
});
