import { Injectable } from '@nestjs/common';
import {
  type Envelope,
  fail,
  GetKeyTotals,
  GetTransfer,
  ListTransfers,
  ok,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { OnCommand } from '@cts/messaging';
import { KeyTotals } from '../key-totals/key-totals';
import { toTransferResource } from './transfer.domain';
import { TransferRepository } from './transfer.repository';

/**
 * Reads, in the key's environment: the caller's own transfers (sent or received); one by id also
 * when one of its agents sent or received it. The list stays the caller's own.
 */
@Injectable()
export class TransferQueryHandlers {
  constructor(
    private readonly transfers: TransferRepository,
    private readonly keyTotals: KeyTotals,
  ) {}

  @OnCommand(GetTransfer)
  async get(
    message: Envelope<RequestOf<typeof GetTransfer>>,
  ): Promise<Result<ResponseOf<typeof GetTransfer>>> {
    const { account_id, environment, transfer_id } = message.payload;
    const transfer = await this.transfers.findForReader(transfer_id, account_id, environment);
    return transfer
      ? ok(toTransferResource(transfer, account_id))
      : fail('transfer_not_found', 'No such transfer');
  }

  @OnCommand(ListTransfers)
  async list(
    message: Envelope<RequestOf<typeof ListTransfers>>,
  ): Promise<Result<ResponseOf<typeof ListTransfers>>> {
    const { account_id, environment, limit, offset, status, from, to } = message.payload;
    const page = await this.transfers.list({
      accountId: account_id,
      environment,
      limit,
      offset,
      status,
      from: from === undefined ? undefined : new Date(from),
      to: to === undefined ? undefined : new Date(to),
    });
    return ok({
      transfers: page.transfers.map((transfer) => toTransferResource(transfer, account_id)),
      limit,
      offset,
      has_more: page.hasMore,
    });
  }

  @OnCommand(GetKeyTotals)
  async keyTotalsOf(
    message: Envelope<RequestOf<typeof GetKeyTotals>>,
  ): Promise<Result<ResponseOf<typeof GetKeyTotals>>> {
    return ok({ totals: await this.keyTotals.forAccount(message.payload.account_id) });
  }
}
