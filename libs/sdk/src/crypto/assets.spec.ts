import { CryptoError } from '@cts/crypto';
import { ASSET_DECIMALS, assetDecimals, isAssetCode } from './assets';

describe('asset decimals', () => {
  it('knows USDC has 6 decimals and SOL 9', () => {
    expect(ASSET_DECIMALS).toEqual({ USDC: 6, SOL: 9 });
    expect(assetDecimals('USDC')).toBe(6);
    expect(assetDecimals('SOL')).toBe(9);
  });

  it('rejects unknown codes, case variants and prototype keys', () => {
    for (const asset of ['usdc', 'EUR', 'toString', '__proto__', '']) {
      expect(isAssetCode(asset)).toBe(false);
      expect(() => assetDecimals(asset)).toThrow(CryptoError);
    }
  });
});
