import { type Address } from '@solana/kit';
import { elgamalPubkeyOf } from '../keys/account-keys';
import { LedgerError } from '../ledger.errors';
import { type AccountKeyMaterial, type LedgerAccountView, type LedgerAsset } from '../ledger.port';
import { sameBytes } from './ledger-guards';

/**
 * The mints whose confidential account `owner` still lacks; an account configured with another
 * ElGamal key is an error (it would never open with these keys).
 */
export async function missingMints(
  assets: readonly LedgerAsset[],
  keys: AccountKeyMaterial,
  owner: Address,
  readAccount: (owner: Address, asset: string) => Promise<LedgerAccountView>,
): Promise<Address[]> {
  const pubkey = elgamalPubkeyOf(keys);
  const missing: Address[] = [];
  for (const asset of assets) {
    const view = await readAccount(owner, asset.code);
    if (!view.confidentialReady) {
      missing.push(asset.mint);
    } else if (!sameBytes(view.elgamalPubkey, pubkey)) {
      throw new LedgerError(
        'account_key_mismatch',
        `the ${asset.code} account of ${owner} uses another ElGamal key`,
      );
    }
  }
  return missing;
}

/** What the public balance lacks of `needed` (0 when it covers it). */
export const lackingPublicAmount = (publicAmount: bigint, needed: bigint): bigint =>
  publicAmount >= needed ? 0n : needed - publicAmount;

/** What of the public balance a payment of `amount` may use: all but `committed`, at most `amount`. */
export const usablePublicAmount = (publicAmount: bigint, committed: bigint, amount: bigint): bigint => {
  const free = publicAmount > committed ? publicAmount - committed : 0n;
  return free < amount ? free : amount;
};
