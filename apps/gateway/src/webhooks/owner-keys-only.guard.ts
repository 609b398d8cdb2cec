import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import { type Account, DomainError, GetAccount } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { type Request } from 'express';
import { callerOf } from '../http/request-context';
import { unwrap } from '../http/result';

/** The caller's account as the guard read it, for a route that needs it too (one read per request). */
const accountsRead = new WeakMap<Request, Account>();

/**
 * Webhook subscriptions are the owner's: its subscriptions already receive every event of its
 * agents (spec §6.1). An agent's key managing its own would give a leaked key a channel out of the
 * account that outlives the key, out of its owner's sight, and a way to make the service send a
 * request to a host of the key holder's choosing (the test event). Runs after the API key guard: the
 * principal names the account, not its type, so this reads the account (rarely used routes).
 */
@Injectable()
export class OwnerKeysOnlyGuard implements CanActivate {
  constructor(private readonly commands: CommandBus) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const caller = callerOf(request);
    const { account_id, environment } = caller.principal;
    const account = unwrap(await this.commands.send(GetAccount, { account_id, environment }, caller.context));
    if (account.type === 'agent') {
      throw new DomainError(
        'forbidden',
        "An agent's key cannot manage webhooks: its owner's subscriptions receive the agent's events",
      );
    }
    accountsRead.set(request, account);
    return true;
  }
}

/** The calling account, read by `OwnerKeysOnlyGuard` on the way in. */
export const OwnerAccount = createParamDecorator((_data: unknown, context: ExecutionContext): Account => {
  const account = accountsRead.get(context.switchToHttp().getRequest<Request>());
  if (!account) {
    // Reaching this is a wiring bug: a route without the guard.
    throw new Error('No account read by OwnerKeysOnlyGuard on this request');
  }
  return account;
});
