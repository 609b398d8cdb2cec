import { z } from 'zod';
import { defineCommand } from '../contract';
import { Environment } from '../environment';
import { PartyRef, Timestamp } from '../parties';
import { CommandTopics } from '../topics';
import { AssetCode, HeldTransaction } from '../transfers/transfer.schemas';
import { AgentTransactionStatus } from './approval.events';
import {
  AgentTransactionPage,
  AgentTransactionResource,
  AgentTransactionView,
  PendingApprovalList,
} from './approval.schemas';

/** An opaque ciphertext approval-service stores and hands on, never opens. */
const Opaque = (max: number) => z.string().min(1).max(max);

/**
 * transfer-service, for an agent transfer its policy evaluation answered `hold`: keep it for the
 * owner to approve or reject within `approval_window_minutes` of `requested_at`. Nothing moves.
 *
 * - `sealed_amount` / `sealed_memo`: as in CreateTransfer (sealed for `agent.account_id`); replayed
 *   unchanged into the CreateTransfer an approval sends.
 * - `owner_encrypted_amount`: the amount as an AE ciphertext under the owner's key (base64), shown
 *   to the owner in the pending list.
 * - `reservation_id`: the transfer id reserved for the eventual transfer (`tr_…`), also the spend
 *   reservation's id. One held transaction per reservation: a repeat (or a redelivered message)
 *   answers with the first hold and creates nothing.
 * - `x402`: for an x402 payment (`to` is then the resource's host), the quote's payee address and the
 *   resource URL, shown to the owner with the hold; null or absent for a transfer.
 *
 * Errors: `invalid_request` (agent and owner are one account; `reservation_id` already held for
 * another agent or environment). Emits `agent.transaction.pending_approval`.
 */
export const HoldAgentTransaction = defineCommand(
  CommandTopics.approvalHold,
  z.object({
    environment: Environment,
    agent: PartyRef,
    owner: PartyRef,
    to: z.string().min(1).max(256),
    asset: AssetCode,
    confidential: z.boolean(),
    sealed_amount: Opaque(4096),
    sealed_memo: Opaque(16384).nullable(),
    api_key_id: z.string().min(1).nullable(),
    reservation_id: z.string().min(1).max(100),
    approval_window_minutes: z.number().int().min(1).max(10080),
    owner_encrypted_amount: Opaque(4096),
    requested_at: Timestamp,
    x402: z.object({ pay_to: z.string().min(1).max(64), resource: z.string().min(1).max(2048) }).nullish(),
  }),
  HeldTransaction,
);

/** The owner's held transactions in one environment still awaiting a decision, soonest-expiring first. */
export const ListPendingApprovals = defineCommand(
  CommandTopics.approvalListPending,
  z.object({ owner_account_id: z.string().min(1), environment: Environment }),
  PendingApprovalList,
);

const Decision = z.object({
  caller_account_id: z.string().min(1),
  environment: Environment,
  transaction_id: z.string().min(1).max(64),
});

/**
 * The owner approves: the transaction is settled as a transfer of the agent (the policy in force is
 * re-checked, except the threshold). Replies with the transaction: `approved` with `transfer_id`, or
 * `failed` with `failure_reason` when the transfer could not settle; `approved` with `transfer_id:
 * null` while transfer-service has not answered yet (it is finished in the background).
 *
 * Errors: `transaction_not_found` (unknown id, or another environment), `not_agent_owner` (anyone
 * but the owner, the agent itself included), `transaction_expired` (window passed),
 * `transaction_already_decided`. Emits `agent.transaction.approved`, then possibly
 * `agent.transaction.failed`.
 */
export const ApproveAgentTransaction = defineCommand(
  CommandTopics.approvalApprove,
  Decision,
  AgentTransactionResource,
);

/** The owner rejects: nothing moves, the spend reservation is freed. Errors as approve. Emits `agent.transaction.rejected`. */
export const RejectAgentTransaction = defineCommand(
  CommandTopics.approvalReject,
  Decision,
  AgentTransactionResource,
);

/**
 * One held transaction as `caller_account_id` may see it: its owner (with `encrypted_amount`) or the
 * agent itself (without). A pending transaction whose window has passed reads `expired` even before
 * the sweeper marks it. Errors: `transaction_not_found` for anyone else, an unknown id or another
 * environment (nobody learns that the id exists).
 */
export const GetAgentTransaction = defineCommand(
  CommandTopics.approvalGet,
  z.object({
    caller_account_id: z.string().min(1),
    environment: Environment,
    transaction_id: z.string().min(1).max(64),
  }),
  AgentTransactionView,
);

/**
 * An agent's held transactions in one environment, newest first, as `caller_account_id` may see them
 * (see GetAgentTransaction; rows the caller may not see are simply absent). `starting_after`: the
 * last `transaction_id` of the previous page. The gateway checks the caller may list this agent first.
 */
export const ListAgentTransactions = defineCommand(
  CommandTopics.approvalList,
  z.object({
    caller_account_id: z.string().min(1),
    environment: Environment,
    agent_account_id: z.string().min(1),
    status: AgentTransactionStatus.optional(),
    limit: z.number().int().min(1).max(100),
    starting_after: z.string().min(1).max(64).optional(),
  }),
  AgentTransactionPage,
);
