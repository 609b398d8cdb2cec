import { Inject, Injectable } from '@nestjs/common';
import {
  amountSealingContext,
  type AccountParty,
  type AssetCode,
  contextFrom,
  type Envelope,
  fail,
  GetAccount,
  newId,
  ok,
  PayX402,
  type RequestOf,
  ResolveParties,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { sealAmount, type SealingKey } from '@cts/crypto';
import { CommandBus, OnCommand } from '@cts/messaging';
import { Ledgers } from '../ledger/ledgers';
import { DATA_KEY } from '../sealing/data-key';
import { AgentGate } from '../transfers/agent-gate';
import { kycAllowsMoney } from '../transfers/transfer.domain';
import { isSigned, sameTerms, toX402Resource, type X402PaymentRecord } from './x402-payment.domain';
import { X402PaymentRepository } from './x402-payment.repository';
import {
  parseQuote,
  type ParsedQuote,
  quoteExpired,
  receivedAtProblem,
  resourceHost,
} from './x402-quote.domain';
import { X402Claims } from './x402-claims';
import { stoppedAnswer, X402Signing } from './x402-signing';

type Request = RequestOf<typeof PayX402>;
type Paid = Result<ResponseOf<typeof PayX402>>;

/**
 * `POST /v1/agents/x402/payments` behind the gateway (issue 20): read the 402 answer, gate the payment
 * through the agent's spend policy exactly as a transfer (AgentGate: same reasons, same daily counter,
 * same threshold and hold), then sign the exact-scheme payload. A retry (same Idempotency-Key, same
 * approval, or a redelivered command) gets the first payment back and signs nothing.
 */
@Injectable()
export class PayX402Handlers {
  constructor(
    private readonly commands: CommandBus,
    private readonly ledgers: Ledgers,
    private readonly agentGate: AgentGate,
    private readonly signing: X402Signing,
    private readonly claims: X402Claims,
    private readonly payments: X402PaymentRepository,
    @Inject(DATA_KEY) private readonly dataKey: SealingKey,
  ) {}

  @OnCommand(PayX402)
  async pay(message: Envelope<Request>): Promise<Paid> {
    const request = message.payload;
    // Who asks comes first: a key that may not pay at all is told so whatever its quote says.
    const caller = await this.commands.send(
      GetAccount,
      { account_id: request.account_id, environment: request.environment },
      contextFrom(message),
    );
    if (!caller.ok) {
      return caller;
    }
    if (caller.value.type !== 'agent') {
      return fail('forbidden', 'x402 payments are made with an agent key');
    }
    const ledger = await this.ledgers.of(request.environment);
    const registry = ledger.assets().map(({ code, mint, decimals }) => ({ code, mint, decimals }));
    const quote = parseQuote(request.payment_required, request.environment, registry);
    if (!quote.ok) {
      return quote;
    }
    const host = resourceHost(request.resource, quote.value.resourceUrl);
    if (!host.ok) {
      return host;
    }
    const terms = termsOf(request, quote.value);
    const existing =
      request.idempotency_key === null
        ? null
        : await this.payments.findByIdempotencyKey(
            request.account_id,
            request.environment,
            request.idempotency_key,
          );
    if (existing && isSigned(existing)) {
      return sameTerms(existing, terms)
        ? ok({ kind: 'payment', payment: toX402Resource(existing) })
        : fail(
            'idempotency_key_reused',
            'This Idempotency-Key already paid another resource, payee or amount',
          );
    }
    const receivedAt = request.received_at === null ? null : new Date(request.received_at);
    const skewed = receivedAtProblem(receivedAt, new Date());
    if (skewed) {
      return skewed;
    }
    if (quoteExpired(receivedAt, quote.value.chosen.maxTimeoutSeconds, new Date())) {
      return fail(
        'quote_expired',
        'The 402 answer is older than its maxTimeoutSeconds: request the resource again for a new quote',
      );
    }
    const payer = await this.payer(message, quote.value);
    if (!payer.ok) {
      return payer;
    }
    if (request.approved_transaction_id !== null) {
      return this.claims.claim(message, payer.value, quote.value, terms);
    }
    return this.gateAndSign(message, payer.value, host.value, quote.value);
  }

  private async gateAndSign(
    message: Envelope<Request>,
    payer: AccountParty,
    host: string,
    quote: ParsedQuote,
  ): Promise<Paid> {
    const request = message.payload;
    const { chosen } = quote;
    let paymentId = newId('x402');
    const gate = await this.agentGate.checkSpend(message, payer, chosen.amount, () => ({
      environment: request.environment,
      to: host,
      pay_to: chosen.payTo,
      resource: request.resource,
      asset: chosen.asset.code as AssetCode,
      confidential: false,
      sealed_amount: sealAmount(this.dataKey, chosen.amount, amountSealingContext(payer.account_id)),
      sealed_memo: null,
      api_key_id: request.api_key_id,
      reservation_id: paymentId,
      approved: false,
    }));
    if (gate.kind === 'stop') {
      if (gate.result.ok && gate.result.value.kind === 'held') {
        await this.claims.recordHeld(message, paymentId, gate.result.value.transaction.transaction_id, quote);
      }
      return stoppedAnswer(gate.result, { pay_to: chosen.payTo, resource: request.resource });
    }
    paymentId = gate.transferId;
    const redelivered = await this.payments.findById(request.account_id, request.environment, paymentId);
    if (redelivered && isSigned(redelivered)) {
      return ok({ kind: 'payment', payment: toX402Resource(redelivered) });
    }
    return this.signing.signNew(message, payer, paymentId, quote);
  }

  /** The paying agent (ResolveParties with the payee, which may be anyone's address). */
  private async payer(message: Envelope<Request>, quote: ParsedQuote): Promise<Result<AccountParty>> {
    const request = message.payload;
    const resolved = await this.commands.send(
      ResolveParties,
      { sender_account_id: request.account_id, to: quote.chosen.payTo, environment: request.environment },
      contextFrom(message),
    );
    if (!resolved.ok) {
      return resolved;
    }
    // The same account `pay` found to be an agent before reading the quote.
    const payer = resolved.value.sender;
    if (!kycAllowsMoney(payer.kyc_status)) {
      return fail('kyc_required', 'Payments need a verified account (KYC)');
    }
    return ok(payer);
  }
}

export function termsOf(
  request: Request,
  quote: ParsedQuote,
): Pick<X402PaymentRecord, 'resource' | 'payTo' | 'asset' | 'amountBaseUnits'> {
  return {
    resource: request.resource,
    payTo: quote.chosen.payTo,
    asset: quote.chosen.asset.code as AssetCode,
    amountBaseUnits: quote.chosen.amount.toString(),
  };
}
