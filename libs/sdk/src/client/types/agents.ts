/** Spec §2.3. */
export interface AgentAccount {
  account_id: string;
  handle: string;
  public_key: string;
  status: string;
  spend_policy_id: string;
}

export interface AgentList {
  agents: AgentAccount[];
}

/** The rules of a spend policy (spec §2.4, defaults in ARCHITECTURE §6). */
export interface SpendPolicyRules {
  daily_limit_usdc: number;
  per_transaction_limit_usdc: number;
  /** Default `["*"]`; an empty list allows nobody. */
  allowed_recipients?: string[];
  /** Default `["USDC"]`. */
  assets?: string[];
  /** `HH:MM-HH:MM`, may wrap midnight; omitted means always active. */
  active_hours?: string | null;
  /** IANA time zone of `active_hours`, default `UTC`. */
  timezone?: string;
  /** Omitted means no transaction is held for approval. */
  hitl_threshold_usdc?: number | null;
  /** Default 60, 1..10080. */
  approval_window_minutes?: number;
}

export interface SpendPolicy extends SpendPolicyRules {
  policy_id: string;
  updated_at: string;
}

export type SpendPolicyPatch = Partial<SpendPolicyRules>;

export interface CreateAgentInput {
  name: string;
  spend_policy: SpendPolicyRules;
}

export type AgentTransactionStatus = 'pending_approval' | 'approved' | 'rejected' | 'expired' | 'failed';

/**
 * A held agent transaction: as approve and reject return it, and as `agentTransaction` and
 * `agentTransactions` read it (ARCHITECTURE §6, issue 16).
 */
export interface AgentTransaction {
  transaction_id: string;
  status: AgentTransactionStatus;
  /** The agent's handle. */
  agent?: string;
  to?: string;
  asset?: string;
  requested_at?: string;
  expires_at?: string;
  /** When the owner approved or rejected; `null` while pending and for an expired transaction. */
  decided_at?: string | null;
  /** Set once an approved transaction became a transfer. */
  transfer_id?: string | null;
  /** Only when `status` is `failed`. */
  failure_reason?: string;
  /** An x402 payment's payee and resource; `null` for a transfer. */
  x402?: X402Terms | null;
  /** For the owner only: opens with the owner's `decryptAmount`. */
  encrypted_amount?: string;
}

export interface AgentTransactionList {
  transactions: AgentTransaction[];
  has_more: boolean;
}

export interface ListAgentTransactionsQuery {
  /** 1..100, default 20. */
  limit?: number;
  /** The last `transaction_id` of the previous page. */
  starting_after?: string;
  status?: AgentTransactionStatus;
}

/** Spec §2.5; `encrypted_amount` opens with the owner's `decryptAmount`. */
export interface PendingApproval {
  transaction_id: string;
  agent: string;
  to: string;
  requested_at: string;
  expires_at: string;
  encrypted_amount: string;
  asset: string;
  /** An x402 payment's payee and the URL it pays for (its `to` is only the host); `null` for a transfer. */
  x402: X402Terms | null;
}

/** What a held x402 payment pays: check both before approving, they come from the agent's quote. */
export interface X402Terms {
  pay_to: string;
  resource: string;
}

export interface PendingApprovalList {
  pending: PendingApproval[];
}
