import { Get, Headers, Query } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { GetBalances } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { CurrentCaller } from '../http/caller.decorator';
import { ApiErrors, V1Controller } from '../http/endpoint.decorators';
import { type Caller } from '../http/request-context';
import { unwrap } from '../http/result';
import { BalancesQuery, BalancesSchema } from './balances.schemas';

@V1Controller('accounts', 'accounts')
export class BalancesController {
  constructor(private readonly commands: CommandBus) {}

  @Get('me/balances')
  @ApiOperation({
    summary:
      'Balances: whether each asset is non-zero; amounts only with a valid client-side decryption proof',
  })
  @ApiHeader({
    name: 'X-Decryption-Proof',
    required: false,
    description: 'Alternative to the decryption_proof query parameter',
  })
  @ApiOkResponse({ description: 'One entry per asset', standardSchema: BalancesSchema })
  @ApiErrors([403, 'kyc_required'], [422, 'decryption_proof_invalid'])
  async balances(
    @CurrentCaller() caller: Caller,
    @Query({ schema: BalancesQuery }) query: BalancesQuery,
    @Headers('x-decryption-proof') proofHeader: string | undefined,
  ) {
    const { account_id, environment } = caller.principal;
    const proof = query.decryption_proof ?? proofHeader ?? null;
    return unwrap(
      await this.commands.send(
        GetBalances,
        {
          account_id,
          environment,
          include_ciphertext: query.include === 'ciphertext',
          decryption_proof: proof,
        },
        caller.context,
      ),
    );
  }
}
