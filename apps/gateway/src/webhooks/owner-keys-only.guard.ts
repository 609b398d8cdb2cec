import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { DomainError, GetAccount } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { callerOf } from '../http/request-context';
import { unwrap } from '../http/result';

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
    const caller = callerOf(context.switchToHttp().getRequest());
    const { account_id, environment } = caller.principal;
    const account = unwrap(await this.commands.send(GetAccount, { account_id, environment }, caller.context));
    if (account.type === 'agent') {
      throw new DomainError(
        'forbidden',
        "An agent's key cannot manage webhooks: its owner's subscriptions receive the agent's events",
      );
    }
    return true;
  }
}
