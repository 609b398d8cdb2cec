import { type AccountType, DomainError, type Environment } from '@cts/contracts';

/**
 * The environment of a key created with another key: the caller's by default. A test key is often
 * less guarded (CI, sandboxes), so it must not mint keys that move real funds.
 */
export function environmentOfNewKey(caller: Environment, requested: Environment | undefined): Environment {
  const environment = requested ?? caller;
  if (caller === 'test' && environment === 'live') {
    throw new DomainError('forbidden', 'A test key cannot create live keys', { param: 'environment' });
  }
  return environment;
}

const OWNERS_ROUTE = {
  list: 'its owner lists them (GET /v1/agents/{account_id}/api-keys)',
  revoke: 'its owner revokes them (DELETE /v1/agents/{account_id}/api-keys/{key_id})',
} as const;

/**
 * An agent's keys are its owner's to manage, so an agent's own key may not list or revoke keys, as
 * it may not create them (account-service refuses that): a leaked agent key must not be able to
 * see or revoke the keys its owner gave out.
 */
export function refuseAgentKeyManagement(type: AccountType, action: keyof typeof OWNERS_ROUTE): void {
  if (type === 'agent') {
    throw new DomainError('forbidden', `An agent cannot ${action} API keys: ${OWNERS_ROUTE[action]}`);
  }
}
