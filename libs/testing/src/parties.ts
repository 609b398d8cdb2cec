import { newId, type PartyRef } from '@cts/contracts';
import { randomBytes } from 'node:crypto';

let parties = 0;

/**
 * A party no other test uses: a fresh account id and a handle that is valid (`@[a-z0-9_]{3,30}`) and
 * unique across suites sharing one database.
 */
export function newParty(name = 'party'): PartyRef {
  parties += 1;
  return { account_id: newId('acct'), handle: `@${name}_${parties}_${randomBytes(3).toString('hex')}` };
}

/** An owner and one agent under it (`@owner/bot`), as agent-policy-service and approval-service see them. */
export function newOwnerWithAgent(agentName = 'bot'): { owner: PartyRef; agent: PartyRef } {
  const owner = newParty('owner');
  return { owner, agent: { account_id: newId('acct'), handle: `${owner.handle}/${agentName}` } };
}
