import { encodeDecryptionProofParam, parseDecryptionProofParam } from '@cts/crypto';
import { decimalsOfCode } from './assets';

describe('decimalsOfCode', () => {
  it('gives the decimals of the known asset codes', () => {
    expect(decimalsOfCode('USDC')).toBe(6);
    expect(decimalsOfCode('SOL')).toBe(9);
  });

  it.each(['usdc', 'BTC', '', 'constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'knows no asset %j, even one named like a member of every object',
    (code) => {
      expect(decimalsOfCode(code)).toBeUndefined();
    },
  );

  it('makes a decryption proof for an asset named constructor an unknown asset, not a thrown error', () => {
    const raw = encodeDecryptionProofParam([
      { asset: 'constructor', amount: '1', proof: new Uint8Array(192) },
    ]);
    expect(parseDecryptionProofParam(raw, decimalsOfCode)).toMatchObject({
      ok: false,
      error: { reason: 'unknown_asset' },
    });
  });
});
