import { DomainError, GetSpendPolicy } from '@cts/contracts';
import { type CommandBus } from '@cts/messaging';
import { type Caller } from '../http/request-context';
import { unwrap } from '../http/result';

/**
 * Refuses anyone but the agent's owner, for a route that is not about the policy: the policy read
 * is the ownership check (the same 403 and 404 as the policy routes), but its refusal speaks of the
 * policy, so the route gives its own `refusal` for what the caller tried.
 */
export async function requireAgentOwner(
  commands: CommandBus,
  caller: Caller,
  agentId: string,
  refusal: string,
): Promise<void> {
  const { account_id, environment } = caller.principal;
  const owned = await commands.send(
    GetSpendPolicy,
    { caller_account_id: account_id, agent_account_id: agentId, environment },
    caller.context,
  );
  if (!owned.ok && owned.error.code === 'not_agent_owner') {
    throw new DomainError('not_agent_owner', refusal);
  }
  unwrap(owned);
}
