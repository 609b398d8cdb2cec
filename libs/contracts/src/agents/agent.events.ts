import { z } from 'zod';
import { defineEvent } from '../contract';
import { PartyRef, Timestamp } from '../parties';
import { EventTopics } from '../topics';

/** Our addition (docs/events.md): an owner created an agent account. */
export const AgentCreated = defineEvent(
  EventTopics.agent,
  'agent.created',
  z.object({ agent: PartyRef, owner: PartyRef, spend_policy_id: z.string(), created_at: Timestamp }),
);

/** Spec §3.3. Names the changed fields, never their values (limits stay between owner and service). */
export const AgentPolicyUpdated = defineEvent(
  EventTopics.agent,
  'agent.policy.updated',
  z.object({
    agent: PartyRef,
    owner: PartyRef,
    policy_id: z.string(),
    changed_fields: z.array(z.string()),
    updated_at: Timestamp,
  }),
);
