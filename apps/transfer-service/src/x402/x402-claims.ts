import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  amountSealingContext,
  type AccountParty,
  contextFrom,
  type Envelope,
  fail,
  GetAgentTransaction,
  ok,
  type PayX402,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { sealAmount, type SealingKey } from '@cts/crypto';
import { CommandBus } from '@cts/messaging';
import { isUniqueViolation } from '@cts/persistence';
import { DATA_KEY } from '../sealing/data-key';
import { AgentGate } from '../transfers/agent-gate';
import { isSigned, sameTerms, toX402Resource, type X402PaymentRecord } from './x402-payment.domain';
import { X402PaymentRepository } from './x402-payment.repository';
import { type ParsedQuote, resourceHost } from './x402-quote.domain';
import { recordOf, stoppedAnswer, X402Signing } from './x402-signing';

type Request = RequestOf<typeof PayX402>;
type Paid = Result<ResponseOf<typeof PayX402>>;
type Terms = Pick<X402PaymentRecord, 'resource' | 'payTo' | 'asset' | 'amountBaseUnits'>;

/**
 * Payments above the threshold: held as an agent transaction (nothing signed), approved or rejected by
 * the owner through the usual endpoints, then paid by the agent with `approved_transaction_id` and a
 * fresh 402 answer for the same resource, payee, asset and amount (a quote outlives no approval
 * window). The policy in force is re-checked then, except the threshold, as for an approved transfer.
 */
@Injectable()
export class X402Claims {
  private readonly logger = new Logger(X402Claims.name);

  constructor(
    private readonly commands: CommandBus,
    private readonly agentGate: AgentGate,
    private readonly signing: X402Signing,
    private readonly payments: X402PaymentRepository,
    @Inject(DATA_KEY) private readonly dataKey: SealingKey,
  ) {}

  /** What was held, so the claim can be bound to it (one row per held transaction). */
  async recordHeld(message: Envelope<Request>, paymentId: string, transactionId: string, quote: ParsedQuote) {
    try {
      await this.payments.insert({
        ...recordOf(message.payload, paymentId, quote),
        idempotencyKey: null,
        approvedTransactionId: transactionId,
        status: 'held',
        paymentSignature: null,
        message: null,
      });
    } catch (error) {
      if (!isUniqueViolation(error)) {
        throw error;
      }
      this.logger.debug(`held payment ${transactionId} was already recorded (a redelivered command)`);
    }
  }

  async claim(
    message: Envelope<Request>,
    payer: AccountParty,
    quote: ParsedQuote,
    terms: Terms,
  ): Promise<Paid> {
    const request = message.payload;
    const transactionId = request.approved_transaction_id ?? '';
    const held = await this.payments.findByHeldTransaction(
      request.account_id,
      request.environment,
      transactionId,
    );
    if (!held) {
      return fail('transaction_not_found', `No held x402 payment ${transactionId} of this agent`);
    }
    if (!sameTerms(held, terms)) {
      return fail(
        'invalid_request',
        'The 402 answer asks for another resource, payee, asset or amount than the approved payment',
        {
          param: 'payment_required',
        },
      );
    }
    if (isSigned(held)) {
      return ok({ kind: 'payment', payment: toX402Resource(held) });
    }
    const approval = await this.commands.send(
      GetAgentTransaction,
      {
        caller_account_id: payer.account_id,
        environment: request.environment,
        transaction_id: transactionId,
      },
      contextFrom(message),
    );
    if (!approval.ok) {
      return approval;
    }
    if (approval.value.status !== 'approved' || approval.value.transfer_id !== held.id) {
      return fail(
        'forbidden',
        `Transaction ${transactionId} is ${approval.value.status}: only an approved payment can be paid`,
        {
          reason: approval.value.status,
        },
      );
    }
    const host = resourceHost(held.resource, null);
    if (!host.ok) {
      return host;
    }
    const gate = await this.agentGate.checkSpend(message, payer, BigInt(held.amountBaseUnits), () => ({
      environment: request.environment,
      to: host.value,
      pay_to: held.payTo,
      asset: held.asset,
      confidential: false,
      sealed_amount: sealAmount(
        this.dataKey,
        BigInt(held.amountBaseUnits),
        amountSealingContext(payer.account_id),
      ),
      sealed_memo: null,
      api_key_id: request.api_key_id,
      reservation_id: held.id,
      approved: true,
    }));
    if (gate.kind === 'stop') {
      return stoppedAnswer(gate.result, { pay_to: held.payTo, resource: held.resource });
    }
    return this.signing.signHeld(held, payer, quote);
  }
}
