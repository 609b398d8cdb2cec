import { ASSET_DECIMALS, AssetCode } from '@cts/contracts';

export const assetDecimals = (asset: AssetCode): number => ASSET_DECIMALS[asset];

/**
 * The decimals of an asset code a caller wrote, undefined for anything else. Checked against the
 * codes, not looked up: `constructor` or `__proto__` would find Object.prototype's members.
 */
export const decimalsOfCode = (code: string): number | undefined =>
  AssetCode.safeParse(code).success ? ASSET_DECIMALS[code as AssetCode] : undefined;
