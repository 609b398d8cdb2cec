import { isSome } from '@solana/kit';
import { type Extension, type Mint, type Token } from '@solana-program/token-2022';

export type ConfidentialAccountExtension = Extract<Extension, { __kind: 'ConfidentialTransferAccount' }>;
export type ConfidentialMintExtension = Extract<Extension, { __kind: 'ConfidentialTransferMint' }>;

function extensionsOf(state: Token | Mint): Extension[] {
  return isSome(state.extensions) ? state.extensions.value : [];
}

export function confidentialExtensionOf(token: Token): ConfidentialAccountExtension | null {
  const found = extensionsOf(token).find(
    (extension): extension is ConfidentialAccountExtension =>
      extension.__kind === 'ConfidentialTransferAccount',
  );
  return found ?? null;
}

/**
 * A credit landed between the last apply's read and its execution: token-2022 applied it, but the
 * decryptable (AE) balance that apply wrote does not hold it. The credit counters record it.
 */
export function creditsMissedByLastApply(extension: ConfidentialAccountExtension): boolean {
  return extension.actualPendingBalanceCreditCounter !== extension.expectedPendingBalanceCreditCounter;
}

export function confidentialMintExtensionOf(mint: Mint): ConfidentialMintExtension | null {
  const found = extensionsOf(mint).find(
    (extension): extension is ConfidentialMintExtension => extension.__kind === 'ConfidentialTransferMint',
  );
  return found ?? null;
}

/** Configured and approved: it can send and receive confidential transfers. */
export function isConfidentialReady(token: Token): boolean {
  const extension = confidentialExtensionOf(token);
  return extension !== null && extension.approved && extension.allowConfidentialCredits;
}
