export interface FundInput {
  asset: string;
  /** Decimal string. */
  amount: string;
}

/** Response shape not fixed by the spec or the architecture. */
export interface Funding {
  asset?: string;
  status?: string;
  chain_signature?: string;
  funded_at?: string;
}
