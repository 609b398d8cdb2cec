import { type Address, getAddressEncoder } from '@solana/kit';
import { type Token } from '@solana-program/token-2022';
import {
  confidentialExtensionOf,
  creditsMissedByLastApply,
  isConfidentialReady,
} from '../accounts/token-state';
import { type LedgerAccountView } from '../ledger.port';
import { readTokens } from './account-reader';
import { type LedgerRpc } from './ledger-rpc';

interface AccountIdentity {
  owner: Address;
  asset: string;
  tokenAccount: Address;
}

/** Decoded token account → the port's view: raw ciphertext bytes, never a decrypted amount. */
export function toAccountView(identity: AccountIdentity, token: Token | null): LedgerAccountView {
  if (token === null) {
    return { ...identity, exists: false, confidentialReady: false };
  }
  const extension = confidentialExtensionOf(token);
  if (extension === null || !isConfidentialReady(token)) {
    return { ...identity, exists: true, confidentialReady: false, publicAmount: token.amount };
  }
  return {
    ...identity,
    exists: true,
    confidentialReady: true,
    publicAmount: token.amount,
    elgamalPubkey: new Uint8Array(getAddressEncoder().encode(extension.elgamalPubkey)),
    availableBalanceCiphertext: new Uint8Array(extension.availableBalance),
    decryptableAvailableBalance: new Uint8Array(extension.decryptableAvailableBalance),
    pendingBalanceLo: new Uint8Array(extension.pendingBalanceLow),
    pendingBalanceHi: new Uint8Array(extension.pendingBalanceHigh),
    pendingCreditCounter: extension.pendingBalanceCreditCounter,
    decryptableStale: creditsMissedByLastApply(extension),
  };
}

/** An owner's token account for one asset, read alone (the mint is not needed for the view). */
export async function readAccountView(
  rpc: LedgerRpc,
  identity: AccountIdentity,
  abortSignal: AbortSignal,
): Promise<LedgerAccountView> {
  const [token] = await readTokens(rpc, [identity.tokenAccount], abortSignal);
  return toAccountView(identity, token ?? null);
}
