import { Body, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { clientIdempotencyKey, CreateTransfer, GetTransfer, ListTransfers } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { type Request, type Response } from 'express';
import { CurrentCaller } from '../http/caller.decorator';
import { ApiErrors, V1Controller } from '../http/endpoint.decorators';
import { type Caller } from '../http/request-context';
import { unwrap } from '../http/result';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey } from '../idempotency/idempotency.domain';
import { AmountSealer } from './amount-sealer';
import {
  CreatedTransferSchema,
  CreateTransferBody,
  HeldTransactionSchema,
  ListTransfersQuery,
  TransferIdParam,
  TransferListSchema,
  TransferSchema,
} from './transfers.schemas';
import { afterBound, beforeBound } from '../http/time-bounds';

@V1Controller('transfers', 'transfers')
export class TransfersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly sealer: AmountSealer,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a transfer: confidential by default; settles within the request' })
  @ApiOkResponse({ description: 'The transfer (no amount)', standardSchema: CreatedTransferSchema })
  @ApiAcceptedResponse({
    description: 'An agent transfer held for human approval',
    standardSchema: HeldTransactionSchema,
  })
  @ApiErrors(
    [402, 'insufficient_balance'],
    [403, 'kyc_required, policy_violation'],
    [404, 'recipient_not_found'],
    [422, 'recipient_not_confidential_ready, idempotency_key_reused'],
  )
  async create(
    @CurrentCaller() caller: Caller,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @Body({ schema: CreateTransferBody }) body: CreateTransferBody,
  ) {
    const { account_id, key_id, environment } = caller.principal;
    const idempotencyKey = parseIdempotencyKey(req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]);
    const created = unwrap(
      await this.commands.send(
        CreateTransfer,
        {
          account_id,
          environment,
          api_key_id: key_id,
          to: body.to,
          asset: body.asset,
          confidential: body.confidential,
          sealed_amount: this.sealer.sealAmount(account_id, body.amount, body.asset),
          sealed_memo: body.memo === undefined ? null : this.sealer.sealMemo(account_id, body.memo),
          idempotency_key: idempotencyKey === undefined ? null : clientIdempotencyKey(idempotencyKey),
        },
        caller.context,
      ),
    );
    if (created.kind === 'held') {
      res.status(202);
      return created.transaction;
    }
    const { from: _from, confirmed_at: _confirmedAt, ...response } = created.transfer;
    return response;
  }

  @Get(':transfer_id')
  @ApiOperation({ summary: 'One transfer the caller (or one of its agents) sent or received' })
  @ApiOkResponse({ description: 'The transfer', standardSchema: TransferSchema })
  @ApiErrors([404, 'transfer_not_found'])
  async get(
    @CurrentCaller() caller: Caller,
    @Param('transfer_id', { schema: TransferIdParam }) transferId: string,
  ) {
    const { account_id, environment } = caller.principal;
    return unwrap(
      await this.commands.send(
        GetTransfer,
        { account_id, environment, transfer_id: transferId },
        caller.context,
      ),
    );
  }

  @Get()
  @ApiOperation({ summary: "The caller's transfers in the key's environment, newest first" })
  @ApiOkResponse({ description: 'A page of transfers', standardSchema: TransferListSchema })
  async list(
    @CurrentCaller() caller: Caller,
    @Query({ schema: ListTransfersQuery }) query: ListTransfersQuery,
  ) {
    const { account_id, environment } = caller.principal;
    const window = {
      from: afterBound(query.from),
      to: beforeBound(query.to),
    };
    return unwrap(
      await this.commands.send(
        ListTransfers,
        { account_id, environment, ...query, ...window },
        caller.context,
      ),
    );
  }
}
