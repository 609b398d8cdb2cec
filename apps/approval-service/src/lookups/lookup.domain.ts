import { type AgentTransactionStatus, type AgentTransactionView, type Environment } from '@cts/contracts';
import {
  type AgentTransaction,
  isOverdue,
  publicStatus,
  toResource,
} from '../transactions/agent-transaction.domain';

export type Viewer = 'owner' | 'agent';

/**
 * Who `callerAccountId` is to `tx`: its owner, the agent itself, or nobody (null) — also for a
 * transaction of the other environment, so a test key never reads a live transaction.
 */
export function viewerOf(
  tx: Pick<AgentTransaction, 'owner' | 'agent' | 'environment'>,
  callerAccountId: string,
  environment: Environment,
): Viewer | null {
  if (tx.environment !== environment) {
    return null;
  }
  if (tx.owner.account_id === callerAccountId) {
    return 'owner';
  }
  return tx.agent.account_id === callerAccountId ? 'agent' : null;
}

/**
 * The status a reader sees at `now`: a pending transaction whose window has passed is `expired`
 * even before the sweeper has marked it (it can no longer be approved).
 */
export const statusAt = (
  tx: Pick<AgentTransaction, 'state' | 'expiresAt'>,
  now: Date,
): AgentTransactionStatus => (isOverdue(tx, now) ? 'expired' : publicStatus(tx.state));

/** The transaction for its owner (with the owner-only `encrypted_amount`) or for the agent (without). */
export function toView(tx: AgentTransaction, viewer: Viewer, now: Date): AgentTransactionView {
  return {
    ...toResource(tx),
    status: statusAt(tx, now),
    ...(viewer === 'owner' ? { encrypted_amount: tx.ownerEncryptedAmount } : {}),
  };
}
