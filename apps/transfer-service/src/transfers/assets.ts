import { ASSET_DECIMALS, type AssetCode } from '@cts/contracts';

export const assetDecimals = (asset: AssetCode): number => ASSET_DECIMALS[asset];
