import { z } from 'zod';
import { defineEvent } from '../contract';
import { PartyRef, Timestamp } from '../parties';
import { EventTopics } from '../topics';

/**
 * An agent's x402 payment settled on the ledger (issue 20). The amount is present: an x402 payment is
 * a public transfer, so it is public by nature (docs/agents.md).
 */
export const AgentX402Paid = defineEvent(
  EventTopics.agent,
  'agent.x402.paid',
  z.object({
    payment_id: z.string(),
    agent: PartyRef,
    owner: PartyRef,
    resource: z.string(),
    network: z.string(),
    pay_to: z.string(),
    asset: z.string(),
    amount: z.string(),
    chain_signature: z.string(),
    paid_at: Timestamp,
  }),
);
