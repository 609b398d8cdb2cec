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
 * Registers an agent and its spend policies: one per environment, both set from `spend_policy` (test
 * and live are separate worlds: a test key never changes what governs live money). The gateway has
 * created the agent's ledger accounts first; `addresses` are the agent's address on each ledger and
 * `handle` must be `<owner.handle>/<name>`. The reply shows the address and policy of the envelope's
 * environment. Errors: `invalid_request` (owner is an agent, handle mismatch), `handle_taken` (name
 * already used by this owner), `invalid_policy` with `param: spend_policy.<field>`. Emits
 * `agent.created` once in each environment, with that environment's policy id.
 */
export const CreateAgent = defineCommand(
  CommandTopics.agentCreate,
  z.object({
    owner: z.object({ account_id: z.string().min(1), handle: z.string().min(1), type: AccountType }),
    agent_account_id: z.string().min(1),
    name: AgentName,
    handle: AgentHandle,
    addresses: z.object({ live: z.string().min(1), test: z.string().min(1) }),
    spend_policy: RawSpendPolicy,
  }),
  Agent,
);

/**
 * Every agent the owner created, oldest first, each with its address and policy id in `environment`.
 * `public_key` is null for an agent created before addresses were kept per environment and asked
 * from another environment: account-service knows it.
 */
export const ListAgents = defineCommand(
  CommandTopics.agentList,
  z.object({ owner_account_id: z.string().min(1), environment: Environment }),
  z.object({ agents: z.array(Agent.extend({ public_key: z.string().nullable() })) }),
);

/**
 * The agent's policy in `environment` (the caller key's). Errors: `agent_not_found`; `not_agent_owner`
 * for anyone but the owner (the agent itself included).
 */
export const GetSpendPolicy = defineCommand(
  CommandTopics.agentGetPolicy,
  z.object({
    caller_account_id: z.string().min(1),
    agent_account_id: z.string().min(1),
    environment: Environment,
  }),
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
 * Partial update of the agent's policy in `environment` only: only the fields in `patch` change, and
 * the merged policy is validated as a whole. Errors as get, plus `invalid_policy` with `param:
 * <field>`. Emits `agent.policy.updated` (changed field names only) in `environment` when something
 * changed; a patch that changes nothing returns the policy as is.
 */
export const UpdateSpendPolicy = defineCommand(
  CommandTopics.agentUpdatePolicy,
  z.object({
    caller_account_id: z.string().min(1),
    agent_account_id: z.string().min(1),
    environment: Environment,
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
 * - `pay_to`: an x402 payment's payee address; a policy's raw-address patterns may allow it when the
 *   resource's host (`to`) is not allowed by a pattern.
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
    pay_to: z.string().min(1).max(64).optional(),
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
