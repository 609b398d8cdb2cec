import { Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { type Account, GetAccount } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { CurrentCaller } from '../http/caller.decorator';
import { ApiErrors, V1Controller } from '../http/endpoint.decorators';
import { type Caller } from '../http/request-context';
import { unwrap } from '../http/result';
import { AccountSchema } from './accounts.schemas';

@V1Controller('accounts', 'accounts')
export class AccountsController {
  constructor(private readonly commands: CommandBus) {}

  @Get('me')
  @ApiOperation({ summary: 'The authenticated account' })
  @ApiOkResponse({ description: 'The account', standardSchema: AccountSchema })
  @ApiErrors([404, 'account_not_found'])
  async me(@CurrentCaller() caller: Caller): Promise<Account> {
    return unwrap(
      await this.commands.send(
        GetAccount,
        { account_id: caller.principal.account_id, environment: caller.principal.environment },
        caller.context,
      ),
    );
  }
}
