import { CryptoError } from '@cts/crypto';

/** Decimals per asset code; amounts on the wire are decimal strings with at most this many digits. */
export const ASSET_DECIMALS = { USDC: 6, SOL: 9 } as const;
export type AssetCode = keyof typeof ASSET_DECIMALS;

export function isAssetCode(asset: string): asset is AssetCode {
  return Object.prototype.hasOwnProperty.call(ASSET_DECIMALS, asset);
}

export function assetDecimals(asset: string): number {
  if (!isAssetCode(asset)) {
    throw new CryptoError(
      'unknown_asset',
      `unknown asset "${asset}" (known: ${Object.keys(ASSET_DECIMALS).join(', ')})`,
    );
  }
  return ASSET_DECIMALS[asset];
}
