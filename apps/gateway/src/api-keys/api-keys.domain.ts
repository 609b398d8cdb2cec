import { DomainError, type Environment } from '@cts/contracts';

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
