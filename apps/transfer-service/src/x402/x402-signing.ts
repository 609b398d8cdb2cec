import { Injectable } from '@nestjs/common';
import {
  type AccountParty,
  type AssetCode,
  contextFrom,
  type CreateTransfer,
  type Envelope,
  fail,
  ok,
  type PayX402,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { isUniqueViolation } from '@cts/persistence';
import { AgentGate } from '../transfers/agent-gate';
import {
  encodePaymentSignature,
  isSigned,
  type SignedX402Payment,
  toX402Resource,
  type X402PaymentRecord,
} from './x402-payment.domain';
import { X402PaymentRepository } from './x402-payment.repository';
import { type ParsedQuote } from './x402-quote.domain';
import { X402Signer } from './x402-signer';

type Request = RequestOf<typeof PayX402>;
type Paid = Result<ResponseOf<typeof PayX402>>;

/** The signing step of a payment the policy allowed, and its record; a way out that signs nothing frees the reservation. */
@Injectable()
export class X402Signing {
  constructor(
    private readonly signer: X402Signer,
    private readonly payments: X402PaymentRepository,
    private readonly agentGate: AgentGate,
  ) {}

  /** A new payment under `paymentId` (its spend reservation). */
  async signNew(
    message: Envelope<Request>,
    payer: AccountParty,
    paymentId: string,
    quote: ParsedQuote,
  ): Promise<Paid> {
    const request = message.payload;
    const context = contextFrom(message);
    try {
      const signed = await this.signer.sign(payer, request.environment, quote, async (tx) => {
        const record: SignedX402Payment = {
          ...recordOf(request, paymentId, quote),
          status: 'signed',
          paymentSignature: signatureHeader(quote, tx.transaction),
          message: tx.message,
        };
        await this.payments.insert(record);
        return record;
      });
      if (signed.kind === 'insufficient') {
        await this.agentGate.releaseFor(payer, paymentId, context);
        return insufficient(quote);
      }
      return ok({ kind: 'payment', payment: toX402Resource(signed.payment) });
    } catch (error) {
      if (isUniqueViolation(error) && request.idempotency_key !== null) {
        // The same key raced in on another replica: its payment is the answer, this one was never handed out.
        const first = await this.payments.findByIdempotencyKey(
          request.account_id,
          request.environment,
          request.idempotency_key,
        );
        if (first && isSigned(first)) {
          await this.agentGate.releaseFor(payer, paymentId, context);
          return ok({ kind: 'payment', payment: toX402Resource(first) });
        }
      }
      await this.agentGate.releaseFor(payer, paymentId, context);
      throw error;
    }
  }

  /**
   * A held payment its owner approved: signed once, whoever claims it first. The claim is taken
   * before the signer withdraws to the public balance, so a parallel claim withdraws nothing.
   */
  async signHeld(held: X402PaymentRecord, payer: AccountParty, quote: ParsedQuote): Promise<Paid> {
    if (!(await this.payments.claimHeld(held.id, CLAIM_STALE_AFTER_MS))) {
      const current = await this.payments.findById(held.accountId, held.environment, held.id);
      return current && isSigned(current)
        ? ok({ kind: 'payment', payment: toX402Resource(current) })
        : fail('service_unavailable', 'The approved payment is being signed by another call; try again');
    }
    try {
      const signed = await this.signer.sign(payer, held.environment, quote, async (tx) => {
        await this.payments.markSigned(held.id, {
          paymentSignature: signatureHeader(quote, tx.transaction),
          message: tx.message,
          network: quote.chosen.network,
          feePayer: quote.chosen.feePayer,
        });
        return (await this.payments.findById(held.accountId, held.environment, held.id)) ?? held;
      });
      if (signed.kind === 'insufficient') {
        await this.payments.releaseClaim(held.id);
        return insufficient(quote);
      }
      return isSigned(signed.payment)
        ? ok({ kind: 'payment', payment: toX402Resource(signed.payment) })
        : fail('service_unavailable', 'The approved payment could not be signed; try again');
    } catch (error) {
      await this.payments.releaseClaim(held.id);
      throw error;
    }
  }
}

/** Longer than any signing takes (a withdraw's proofs, the ledger's round trips): only a crash leaves a claim this old. */
const CLAIM_STALE_AFTER_MS = 2 * 60_000;

const insufficient = (quote: ParsedQuote): Result<never> =>
  fail('insufficient_balance', `The agent does not hold enough ${quote.chosen.asset.code} for this payment`);

function signatureHeader(quote: ParsedQuote, transaction: string): string {
  return encodePaymentSignature({
    accepted: quote.chosen.accepted,
    resource: quote.resource,
    extensions: quote.extensions,
    transaction,
  });
}

/** The payment's row before it is signed (held) or as it is signed. */
export function recordOf(
  request: Request,
  id: string,
  quote: ParsedQuote,
): Omit<X402PaymentRecord, 'status' | 'paymentSignature' | 'message'> {
  const { chosen } = quote;
  return {
    id,
    environment: request.environment,
    accountId: request.account_id,
    idempotencyKey: request.idempotency_key,
    approvedTransactionId: null,
    resource: request.resource,
    network: chosen.network,
    payTo: chosen.payTo,
    asset: chosen.asset.code as AssetCode,
    amountBaseUnits: chosen.amount.toString(),
    feePayer: chosen.feePayer,
    chainSignature: null,
    createdAt: new Date(),
    settledAt: null,
  };
}

/**
 * The gate's answer when it stops a payment: a refusal, or the held transaction (never a transfer)
 * with whom the payment pays and for what.
 */
export function stoppedAnswer(
  result: Result<ResponseOf<typeof CreateTransfer>>,
  x402: { pay_to: string; resource: string },
): Paid {
  if (!result.ok) {
    return result;
  }
  if (result.value.kind !== 'held') {
    throw new Error('the agent gate stopped an x402 payment with a transfer');
  }
  return ok({ kind: 'held', transaction: { ...result.value.transaction, x402 } });
}
