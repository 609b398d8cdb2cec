import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AssetCode, DomainError, FundTestAccount } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { z } from 'zod';
import { CurrentCaller } from '../http/caller.decorator';
import { ApiErrors, V1Controller } from '../http/endpoint.decorators';
import { type Caller } from '../http/request-context';
import { unwrap } from '../http/result';
import { AmountSealer } from '../transfers/amount-sealer';

const FundBody = z
  .object({ asset: AssetCode.default('USDC'), amount: z.string().max(40) })
  .strict()
  .meta({ id: 'SandboxFundRequest' });
type FundBody = z.infer<typeof FundBody>;

const FundedSchema = z
  .object({
    asset: AssetCode,
    status: z.literal('confirmed'),
    chain_signature: z.string(),
    funded_at: z.iso.datetime(),
  })
  .meta({ id: 'SandboxFunding' });

@V1Controller('sandbox', 'sandbox')
export class SandboxController {
  constructor(
    private readonly commands: CommandBus,
    private readonly sealer: AmountSealer,
  ) {}

  @Post('fund')
  @HttpCode(200)
  @ApiOperation({ summary: 'Test keys only: mint test tokens into the confidential available balance' })
  @ApiOkResponse({ description: 'Funded (no amount echoed)', standardSchema: FundedSchema })
  @ApiErrors([403, 'test_mode_only'])
  async fund(@CurrentCaller() caller: Caller, @Body({ schema: FundBody }) body: FundBody) {
    const { account_id, environment } = caller.principal;
    if (environment !== 'test') {
      throw new DomainError('test_mode_only', 'Funding is only available with a svc_test_ key');
    }
    const sealed_amount = this.sealer.sealAmount(account_id, body.amount, body.asset);
    return unwrap(
      await this.commands.send(
        FundTestAccount,
        { account_id, environment, asset: body.asset, sealed_amount },
        caller.context,
      ),
    );
  }
}
