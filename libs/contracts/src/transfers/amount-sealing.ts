/**
 * Associated data for an amount sealed with DATA_SEALING_KEY (`sealAmount` in @cts/crypto) while it
 * travels between services: binds the ciphertext to the account that spends it, so a sealed amount
 * copied into another account's message does not open.
 */
export const amountSealingContext = (accountId: string): string => `amount:${accountId}`;

/** Associated data for a memo sealed with DATA_SEALING_KEY between the gateway and transfer-service. */
export const memoSealingContext = (accountId: string): string => `memo:${accountId}`;

/** Associated data for the balances call's `decryption_proof` (it names the amounts), sealed gateway → service. */
export const decryptionProofSealingContext = (accountId: string): string => `decryption-proof:${accountId}`;

/** Associated data for a proven balance sealed service → gateway: bound to the account and the asset. */
export const balanceSealingContext = (accountId: string, asset: string): string =>
  `balance:${accountId}:${asset}`;
