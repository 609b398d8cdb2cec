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
  active_hours?: string;
  /** IANA time zone of `active_hours`, default `UTC`. */
  timezone?: string;
  /** Omitted means no transaction is held for approval. */
  hitl_threshold_usdc?: number;
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

/** An agent transaction as returned by approve and reject (ARCHITECTURE §6). */
export interface AgentTransaction {
  transaction_id: string;
  status: AgentTransactionStatus;
  agent?: string;
  to?: string;
  requested_at?: string;
  expires_at?: string;
  /** Set once an approved transaction became a transfer. */
  transfer_id?: string;
  encrypted_amount?: string;
  asset?: string;
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
}

export interface PendingApprovalList {
  pending: PendingApproval[];
}
