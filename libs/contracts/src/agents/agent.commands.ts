import { z } from 'zod';
import { AccountType } from '../accounts/account.schemas';
import { defineCommand } from '../contract';
import { Environment } from '../environment';
import { PartyRef, Timestamp } from '../parties';
import { CommandTopics } from '../topics';
import {
  Agent,
  AgentHandle,
  AgentName,
  RawSpendPolicy,
  SpendEvaluationMode,
  SpendPolicy,
} from './agent.schemas';

/**
 * Registers an agent and its spend policy. The gateway has created the agent's account (account-service)
 * first; `handle` must be `<owner.handle>/<name>`.
 * Errors: `invalid_request` (owner is an agent, handle mismatch), `handle_taken` (name already used by
 * this owner), `invalid_policy` with `param: spend_policy.<field>`. Emits `agent.created`.
 */
export const CreateAgent = defineCommand(
  CommandTopics.agentCreate,
  z.object({
    owner: z.object({ account_id: z.string().min(1), handle: z.string().min(1), type: AccountType }),
    agent_account_id: z.string().min(1),
    name: AgentName,
    handle: AgentHandle,
    public_key: z.string().min(1),
    spend_policy: RawSpendPolicy,
  }),
  Agent,
);

/** Every agent the owner created, oldest first. */
export const ListAgents = defineCommand(
  CommandTopics.agentList,
  z.object({ owner_account_id: z.string().min(1) }),
  z.object({ agents: z.array(Agent) }),
);

/** Errors: `agent_not_found`; `not_agent_owner` for anyone but the owner (the agent itself included). */
export const GetSpendPolicy = defineCommand(
  CommandTopics.agentGetPolicy,
  z.object({ caller_account_id: z.string().min(1), agent_account_id: z.string().min(1) }),
  SpendPolicy,
);

/**
 * The policy governing the calling agent itself (`GET /v1/accounts/me/spend-policy`), so an agent can
 * plan within it; it may read but never change it. `environment`: the calling key's.
 * Errors: `agent_not_found` when the account is not an agent.
 */
export const GetOwnSpendPolicy = defineCommand(
  CommandTopics.agentGetOwnPolicy,
  z.object({ agent_account_id: z.string().min(1), environment: Environment }),
  SpendPolicy,
);

/**
 * Partial update: only the fields in `patch` change, and the merged policy is validated as a whole.
 * Errors as get, plus `invalid_policy` with `param: <field>`. Emits `agent.policy.updated` (changed
 * field names only) when something changed; a patch that changes nothing returns the policy as is.
 */
export const UpdateSpendPolicy = defineCommand(
  CommandTopics.agentUpdatePolicy,
  z.object({
    caller_account_id: z.string().min(1),
    agent_account_id: z.string().min(1),
    patch: RawSpendPolicy,
  }),
  SpendPolicy,
);

/**
 * Checks one agent transaction against its policy and, when it may proceed (`allow`) or wait for a
 * human (`hold`), reserves the amount against the daily limit under `reservation_id` (idempotent:
 * evaluating the same id again replaces that reservation, never adds a second).
 *
 * - `sealed_amount`: base units sealed with DATA_SEALING_KEY and `amountSealingContext(agent_account_id)`.
 * - `to`: the recipient as the sender wrote it (`@handle`, domain or address).
 * - `mode: 'approval_recheck'`: everything but the threshold, not counting this reservation as spent.
 * - `at`: evaluation time (tests); defaults to now.
 *
 * A violation is the error `policy_violation` with `reason` (PolicyViolationReason); it changes no
 * reservation — the caller releases one it no longer needs. An account that is not an agent gets
 * `{decision: 'not_agent'}`. Never carries an amount.
 */
export const EvaluateAgentSpend = defineCommand(
  CommandTopics.agentEvaluate,
  z.object({
    agent_account_id: z.string().min(1),
    environment: Environment,
    reservation_id: z.string().min(1).max(100),
    to: z.string().min(1).max(300),
    asset: z.string().min(1).max(16),
    sealed_amount: z.string().min(1).max(200),
    mode: SpendEvaluationMode,
    at: Timestamp.optional(),
  }),
  z.discriminatedUnion('decision', [
    z.object({ decision: z.literal('not_agent') }),
    z.object({
      decision: z.enum(['allow', 'hold']),
      agent: PartyRef,
      owner: PartyRef,
      approval_window_minutes: z.number().int().positive(),
      policy_id: z.string(),
    }),
  ]),
);

/**
 * Frees a reservation: its transfer failed, or its held transaction was rejected or expired.
 * Idempotent: `released` is false when there was nothing (left) to free.
 */
export const ReleaseSpendReservation = defineCommand(
  CommandTopics.agentReleaseReservation,
  z.object({ reservation_id: z.string().min(1).max(100) }),
  z.object({ released: z.boolean() }),
);
