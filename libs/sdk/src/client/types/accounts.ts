/** Spec §2.2. */
export interface Account {
  account_id: string;
  handle: string;
  type: 'personal' | 'business' | 'agent';
  /** The on-chain address; `null` until the account's ledger accounts exist. */
  public_key: string | null;
  kyc_status: 'unverified' | 'pending' | 'verified' | 'enhanced';
  created_at: string;
}

/**
 * Spec §2.6 and ARCHITECTURE §6. Without a proof an entry says only `has_balance`; with
 * `include: 'ciphertext'` it carries the balance ciphertext; with a valid proof, `amount`.
 */
export interface BalanceEntry {
  asset: string;
  has_balance?: boolean;
  /** Base64 ElGamal available-balance ciphertext, the input of `createDecryptionProof`. */
  ciphertext?: string;
  /** Base64 AE copy of the same balance (only the account opens it): pass it as `decryptableBalance` for large balances. */
  decryptable_balance?: string;
  /**
   * Agents only, with `include: 'ciphertext'`: the public balance the agent may spend (what its signed,
   * unsettled x402 payments have not promised), a decimal string; public on chain. It is not in
   * `ciphertext`: the proven `amount` is `decryptBalance(…)` plus this.
   */
  public_amount?: string;
  /** Decimal string, present only for assets proven by the `decryption_proof`; an agent's includes `public_amount`. */
  amount?: string;
}

export interface BalanceList {
  balances: BalanceEntry[];
}

export interface BalancesQuery {
  include?: 'ciphertext';
  /** The base64 string returned by `createDecryptionProof`. */
  decryptionProof?: string;
}
