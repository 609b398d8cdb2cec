import {
  type AgentTransactionEventPayload,
  type AgentTransactionResource,
  type AgentTransactionStatus,
  type AssetCode,
  type Environment,
  type ErrorCode,
  type HeldTransaction,
  type HeldX402Payment,
  type HoldAgentTransaction,
  type PartyRef,
  type PendingApprovalItem,
  type RequestOf,
} from '@cts/contracts';

/**
 * The life of a held agent transaction (ARCHITECTURE §6). `approving` is ours alone: the owner has
 * approved and the transfer is being settled; outside this service it reads as `approved`.
 *
 *   pending_approval ─approve→ approving ─transfer settles→ approved
 *          │                       └────transfer refused/failed→ failed
 *          ├─reject→ rejected
 *          └─window passes→ expired
 */
export type AgentTransactionState = 'pending_approval' | 'approving' | AgentTransactionStatus;

const MOVES: Record<AgentTransactionState, readonly AgentTransactionState[]> = {
  pending_approval: ['approving', 'rejected', 'expired'],
  approving: ['approved', 'failed'],
  approved: [],
  rejected: [],
  expired: [],
  failed: [],
};

export const canMove = (from: AgentTransactionState, to: AgentTransactionState): boolean =>
  MOVES[from].includes(to);

/** The spend reservation is freed when the transaction ends without a transfer. */
export const releasesReservation = (state: AgentTransactionState): boolean =>
  state === 'rejected' || state === 'expired' || state === 'failed';

export interface AgentTransaction {
  id: string;
  environment: Environment;
  agent: PartyRef;
  owner: PartyRef;
  /** The recipient as the agent wrote it. */
  to: string;
  asset: AssetCode;
  confidential: boolean;
  /** Opaque: sealed for the agent's account by the gateway; this service never opens it. */
  sealedAmount: string;
  sealedMemo: string | null;
  apiKeyId: string | null;
  /** The transfer id reserved for the eventual transfer, and the spend reservation's id. */
  reservationId: string;
  /** Opaque: an AE ciphertext only the owner's decryption key opens. */
  ownerEncryptedAmount: string;
  state: AgentTransactionState;
  requestedAt: Date;
  expiresAt: Date;
  /** When the owner approved or rejected; null while pending and for an expired transaction. */
  decidedAt: Date | null;
  transferId: string | null;
  failureReason: string | null;
  /**
   * An x402 payment's payee and resource, null for a transfer. WARNING: the owner approves what this
   * shows; `to` is only the resource's host (what the policy matched), not who gets paid.
   */
  x402: HeldX402Payment | null;
}

export const expiresAtFor = (requestedAt: Date, windowMinutes: number): Date =>
  new Date(requestedAt.getTime() + windowMinutes * 60_000);

/** The approval window has passed (its end is exclusive: at `expires_at` it is over). */
export const windowPassed = (tx: Pick<AgentTransaction, 'expiresAt'>, now: Date): boolean =>
  now.getTime() >= tx.expiresAt.getTime();

export const isOverdue = (tx: Pick<AgentTransaction, 'state' | 'expiresAt'>, now: Date): boolean =>
  tx.state === 'pending_approval' && windowPassed(tx, now);

/** Whether the owner still has to decide: the pending list shows exactly these. */
export const awaitsDecision = (tx: Pick<AgentTransaction, 'state' | 'expiresAt'>, now: Date): boolean =>
  tx.state === 'pending_approval' && !windowPassed(tx, now);

export type Decision = 'approve' | 'reject';

export interface Decider {
  accountId: string;
  environment: Environment;
}

export type DecisionRefusal = Extract<
  ErrorCode,
  'transaction_not_found' | 'not_agent_owner' | 'transaction_expired' | 'transaction_already_decided'
>;

export type DecisionVerdict =
  | { outcome: 'proceed'; next: 'approving' | 'rejected' }
  /** `expire`: the window passed while it was still pending — it must be marked expired now. */
  | { outcome: 'refuse'; code: DecisionRefusal; expire: boolean };

const refuse = (code: DecisionRefusal, expire = false): DecisionVerdict => ({
  outcome: 'refuse',
  code,
  expire,
});

/**
 * Whether `decider` may approve or reject `tx` at `now`, checked in this order: it exists in the
 * caller's environment, the caller owns the agent (the agent itself does not), the window is open,
 * nobody decided before.
 */
export function judgeDecision(
  tx: AgentTransaction | null,
  decider: Decider,
  decision: Decision,
  now: Date,
): DecisionVerdict {
  if (!tx || tx.environment !== decider.environment) {
    return refuse('transaction_not_found');
  }
  if (tx.owner.account_id !== decider.accountId) {
    return refuse('not_agent_owner');
  }
  if (tx.state === 'expired') {
    return refuse('transaction_expired');
  }
  if (tx.state !== 'pending_approval') {
    return refuse('transaction_already_decided');
  }
  if (windowPassed(tx, now)) {
    return refuse('transaction_expired', true);
  }
  return { outcome: 'proceed', next: decision === 'approve' ? 'approving' : 'rejected' };
}

export const DECISION_MESSAGES: Record<DecisionRefusal, string> = {
  transaction_not_found: 'No pending transaction for this ID',
  not_agent_owner: 'Only the account that owns the agent may decide on its transactions',
  transaction_expired: 'The approval window has passed',
  transaction_already_decided: 'This transaction has already been approved or rejected',
};

/** What the world sees of a state: `approving` is an approval whose transfer is still settling. */
export const publicStatus = (state: AgentTransactionState): AgentTransactionStatus =>
  state === 'approving' ? 'approved' : state;

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

export function toResource(tx: AgentTransaction): AgentTransactionResource {
  return {
    transaction_id: tx.id,
    status: publicStatus(tx.state),
    agent: tx.agent.handle,
    to: tx.to,
    asset: tx.asset,
    requested_at: tx.requestedAt.toISOString(),
    expires_at: tx.expiresAt.toISOString(),
    decided_at: iso(tx.decidedAt),
    transfer_id: tx.transferId,
    ...(tx.state === 'failed' ? { failure_reason: tx.failureReason ?? 'transfer_failed' } : {}),
    x402: tx.x402,
  };
}

export function toHeld(tx: AgentTransaction): HeldTransaction {
  return {
    transaction_id: tx.id,
    status: 'pending_approval',
    agent: tx.agent.handle,
    to: tx.to,
    asset: tx.asset,
    requested_at: tx.requestedAt.toISOString(),
    expires_at: tx.expiresAt.toISOString(),
  };
}

export function toPendingItem(tx: AgentTransaction): PendingApprovalItem {
  return {
    transaction_id: tx.id,
    agent: tx.agent.handle,
    to: tx.to,
    asset: tx.asset,
    requested_at: tx.requestedAt.toISOString(),
    expires_at: tx.expiresAt.toISOString(),
    encrypted_amount: tx.ownerEncryptedAmount,
    x402: tx.x402,
  };
}

/** The payload of every `agent.transaction.*` event: never an amount, sealed or not. */
export function toEventPayload(tx: AgentTransaction): AgentTransactionEventPayload {
  return {
    transaction_id: tx.id,
    status: publicStatus(tx.state),
    agent: tx.agent,
    owner: tx.owner,
    to: tx.to,
    asset: tx.asset,
    requested_at: tx.requestedAt.toISOString(),
    expires_at: tx.expiresAt.toISOString(),
    decided_at: iso(tx.decidedAt),
    transfer_id: tx.transferId,
    ...(tx.state === 'failed' ? { failure_reason: tx.failureReason ?? 'transfer_failed' } : {}),
    x402: tx.x402,
  };
}

/** A new held transaction from transfer-service's hold request. */
export function holdFrom(request: RequestOf<typeof HoldAgentTransaction>, id: string): AgentTransaction {
  const requestedAt = new Date(request.requested_at);
  return {
    id,
    environment: request.environment,
    agent: request.agent,
    owner: request.owner,
    to: request.to,
    asset: request.asset,
    confidential: request.confidential,
    sealedAmount: request.sealed_amount,
    sealedMemo: request.sealed_memo,
    apiKeyId: request.api_key_id,
    reservationId: request.reservation_id,
    ownerEncryptedAmount: request.owner_encrypted_amount,
    state: 'pending_approval',
    requestedAt,
    expiresAt: expiresAtFor(requestedAt, request.approval_window_minutes),
    decidedAt: null,
    transferId: null,
    failureReason: null,
    x402: request.x402 ? { pay_to: request.x402.pay_to, resource: request.x402.resource } : null,
  };
}

/** Why a hold request cannot be kept, or null. `existing`: the transaction already holding its reservation. */
export function holdRefusal(
  request: RequestOf<typeof HoldAgentTransaction>,
  existing: AgentTransaction | null,
): { message: string; param?: string } | null {
  if (request.agent.account_id === request.owner.account_id) {
    return { message: 'An agent cannot be its own owner', param: 'owner' };
  }
  if (
    existing &&
    (existing.agent.account_id !== request.agent.account_id || existing.environment !== request.environment)
  ) {
    return { message: 'This reservation is already held for another transaction', param: 'reservation_id' };
  }
  return null;
}
