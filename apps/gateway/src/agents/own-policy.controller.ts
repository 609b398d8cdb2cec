import { Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { GetOwnSpendPolicy } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { CurrentCaller } from '../http/caller.decorator';
import { ApiErrors, V1Controller } from '../http/endpoint.decorators';
import { type Caller } from '../http/request-context';
import { unwrap } from '../http/result';
import { SpendPolicySchema } from './agents.schemas';

/** An agent reads the policy it runs under, to plan within it; only its owner may change it. */
@V1Controller('accounts/me/spend-policy', 'agents')
export class OwnSpendPolicyController {
  constructor(private readonly commands: CommandBus) {}

  @Get()
  @ApiOperation({ summary: 'The spend policy governing the calling agent (agent keys only; read-only)' })
  @ApiOkResponse({ description: 'The policy in force', standardSchema: SpendPolicySchema })
  @ApiErrors([404, 'agent_not_found: the calling account is not an agent'])
  async get(@CurrentCaller() caller: Caller) {
    const { account_id, environment } = caller.principal;
    return unwrap(
      await this.commands.send(
        GetOwnSpendPolicy,
        { agent_account_id: account_id, environment },
        caller.context,
      ),
    );
  }
}
