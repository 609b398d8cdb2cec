import { Get, Headers, Query } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { type BalanceEntry, GetBalances, type SealedBalanceEntry } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { CurrentCaller } from '../http/caller.decorator';
import { ApiErrors, V1Controller } from '../http/endpoint.decorators';
import { type Caller } from '../http/request-context';
import { unwrap } from '../http/result';
import { AmountSealer } from '../transfers/amount-sealer';
import { BalancesQuery, BalancesSchema } from './balances.schemas';

@V1Controller('accounts', 'accounts')
export class BalancesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly sealer: AmountSealer,
  ) {}

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
    const { balances } = unwrap(
      await this.commands.send(
        GetBalances,
        {
          account_id,
          environment,
          include_ciphertext: query.include === 'ciphertext',
          sealed_decryption_proof: proof === null ? null : this.sealer.sealDecryptionProof(account_id, proof),
        },
        caller.context,
      ),
    );
    return { balances: balances.map((entry) => this.opened(account_id, entry)) };
  }

  private opened(accountId: string, { sealed_amount, ...entry }: SealedBalanceEntry): BalanceEntry {
    return sealed_amount === undefined
      ? entry
      : { ...entry, amount: this.sealer.openBalance(accountId, entry.asset, sealed_amount) };
  }
}
