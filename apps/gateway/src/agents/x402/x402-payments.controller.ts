import { Body, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import {
  clientIdempotencyKey,
  DomainError,
  PayX402,
  ReportX402Settlement,
  X402ChainSignature,
} from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { type Request, type Response } from 'express';
import { CurrentCaller } from '../../http/caller.decorator';
import { ApiErrors, V1Controller } from '../../http/endpoint.decorators';
import { type Caller } from '../../http/request-context';
import { unwrap } from '../../http/result';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey } from '../../idempotency/idempotency.domain';
import { IdempotencyIdentity } from '../../idempotency/idempotency-identity.decorator';
import { decodeX402Header, settledTransactionOf } from './x402-headers.domain';
import { x402PaymentIdentity } from './x402-payment-identity.domain';
import {
  HeldX402TransactionSchema,
  X402PaymentBody,
  X402PaymentIdParam,
  X402PaymentSchema,
  X402SettlementBody,
} from './x402-payments.schemas';

/** Agents pay x402 `402 Payment Required` answers inside their spend policy (issue 20). */
@V1Controller('agents/x402/payments', 'agents')
export class X402PaymentsController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(200)
  @IdempotencyIdentity(x402PaymentIdentity)
  @ApiOperation({
    summary:
      'Pay an x402 402 answer with an agent key: policy-checked like a transfer; returns the PAYMENT-SIGNATURE header value. The amount of an x402 payment is public on chain',
  })
  @ApiOkResponse({ description: 'The signed payment', standardSchema: X402PaymentSchema })
  @ApiAcceptedResponse({
    description: 'Above the policy threshold: held for the owner’s approval, nothing signed',
    standardSchema: HeldX402TransactionSchema,
  })
  @ApiErrors(
    [402, 'insufficient_balance'],
    [403, 'policy_violation, forbidden (not an agent key, or a held payment not approved)'],
    [404, 'transaction_not_found'],
    [409, 'quote_expired'],
    [422, 'payment_requirements_unsupported, idempotency_key_reused'],
  )
  async pay(
    @CurrentCaller() caller: Caller,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @Body({ schema: X402PaymentBody }) body: X402PaymentBody,
  ) {
    const { account_id, key_id, environment } = caller.principal;
    const idempotencyKey = parseIdempotencyKey(req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]);
    const paid = unwrap(
      await this.commands.send(
        PayX402,
        {
          account_id,
          environment,
          api_key_id: key_id,
          payment_required: paymentRequiredOf(body.payment_required),
          resource: body.resource,
          received_at: body.received_at === undefined ? null : new Date(body.received_at).toISOString(),
          idempotency_key: idempotencyKey === undefined ? null : clientIdempotencyKey(idempotencyKey),
          approved_transaction_id: body.approved_transaction_id ?? null,
        },
        caller.context,
      ),
    );
    if (paid.kind === 'held') {
      res.status(202);
      return paid.transaction;
    }
    return paid.payment;
  }

  @Post(':payment_id/settlement')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Report the facilitator’s settlement (the PAYMENT-RESPONSE header): checked against the ledger, then agent.x402.paid',
  })
  @ApiOkResponse({ description: 'The settled payment', standardSchema: X402PaymentSchema })
  @ApiErrors([400, 'invalid_request'], [404, 'x402_payment_not_found'])
  async settle(
    @CurrentCaller() caller: Caller,
    @Param('payment_id', { schema: X402PaymentIdParam }) paymentId: string,
    @Body({ schema: X402SettlementBody }) body: X402SettlementBody,
  ) {
    const { account_id, environment } = caller.principal;
    return unwrap(
      await this.commands.send(
        ReportX402Settlement,
        { account_id, environment, payment_id: paymentId, chain_signature: chainSignatureOf(body) },
        caller.context,
      ),
    );
  }
}

function paymentRequiredOf(value: X402PaymentBody['payment_required']): Record<string, unknown> {
  if (typeof value !== 'string') {
    return value;
  }
  const decoded = decodeX402Header(value);
  if (decoded === null) {
    throw new DomainError('invalid_request', 'payment_required is not a base64 PAYMENT-REQUIRED header', {
      param: 'payment_required',
    });
  }
  return decoded;
}

function chainSignatureOf(body: X402SettlementBody): string {
  const fromHeader = body.payment_response === undefined ? null : settledTransactionOf(body.payment_response);
  const signature = body.chain_signature ?? fromHeader;
  if (signature === null || signature === undefined) {
    throw new DomainError(
      'invalid_request',
      'Send payment_response (a settled PAYMENT-RESPONSE) or chain_signature',
      {
        param: 'payment_response',
      },
    );
  }
  // chain_signature was checked with the body; the header's `transaction` is checked here, as the
  // settlement command would refuse it.
  if (!X402ChainSignature.safeParse(signature).success) {
    throw new DomainError('invalid_request', 'payment_response.transaction is not a transaction signature', {
      param: 'payment_response',
    });
  }
  return signature;
}
