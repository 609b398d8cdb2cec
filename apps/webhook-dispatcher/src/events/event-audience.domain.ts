import { type PartyRef, type TransferEventPayload } from '@cts/contracts';

/**
 * How one receiving account sees a transfer: its own side (`sent` / `received`), who is on the other
 * side, and — for the owner of an agent that is a party — which agent.
 */
export interface TransferView {
  direction: 'sent' | 'received';
  counterparty: string;
  agent: string | null;
}

export interface AudienceMember<V> {
  accountId: string;
  handle: string;
  view: V;
}

/**
 * Adds members in priority order; an account already in keeps its first role. So an owner paying
 * its own agent is told `sent` (it is the sender itself), not `received` as the agent's owner.
 */
function collect<V>(candidates: (AudienceMember<V> | null)[]): AudienceMember<V>[] {
  const seen = new Set<string>();
  return candidates.filter((member): member is AudienceMember<V> => {
    if (!member || seen.has(member.accountId)) {
      return false;
    }
    seen.add(member.accountId);
    return true;
  });
}

/** Sender, recipient (when it is one of ours), and the owner of each side that is an agent. */
export function transferAudience(transfer: TransferEventPayload): AudienceMember<TransferView>[] {
  const { sender, recipient } = transfer;
  const recipientName = recipient.handle ?? recipient.address;
  const sent = (agent: string | null): TransferView => ({
    direction: 'sent',
    counterparty: recipientName,
    agent,
  });
  const received = (agent: string | null): TransferView => ({
    direction: 'received',
    counterparty: sender.handle,
    agent,
  });
  return collect<TransferView>([
    { accountId: sender.account_id, handle: sender.handle, view: sent(null) },
    recipient.account_id
      ? { accountId: recipient.account_id, handle: recipientName, view: received(null) }
      : null,
    sender.owner
      ? { accountId: sender.owner.account_id, handle: sender.owner.handle, view: sent(sender.handle) }
      : null,
    recipient.owner
      ? {
          accountId: recipient.owner.account_id,
          handle: recipient.owner.handle,
          view: received(recipientName),
        }
      : null,
  ]);
}

export type AgentRole = 'agent' | 'owner';

/** `agent.*` and approval events: the agent account and its owner. */
export function agentAudience(parties: { agent: PartyRef; owner: PartyRef }): AudienceMember<AgentRole>[] {
  return collect<AgentRole>([
    { accountId: parties.agent.account_id, handle: parties.agent.handle, view: 'agent' },
    { accountId: parties.owner.account_id, handle: parties.owner.handle, view: 'owner' },
  ]);
}
