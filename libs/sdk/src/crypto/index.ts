export { CryptoError, type CryptoErrorCode } from '@cts/crypto';
export { ASSET_DECIMALS, assetDecimals, isAssetCode, type AssetCode } from './assets';
export { MAX_DISCRETE_LOG_AMOUNT } from './ciphertexts';
export { type BalanceCiphertexts, decryptBalance, type DecryptBalanceOptions } from './decrypt-balance';
export { createDecryptionProof, type DecryptionProofInput } from './create-decryption-proof';
export { decryptAmount } from './decrypt-amount';
export { decryptMemo } from './decrypt-memo';
export { checkDecryptionKey } from './decryption-key';
