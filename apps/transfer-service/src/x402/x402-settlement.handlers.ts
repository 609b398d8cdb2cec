import { Injectable } from '@nestjs/common';
import {
  AgentX402Paid,
  contextFrom,
  type Envelope,
  fail,
  ok,
  type RequestOf,
  ReportX402Settlement,
  ResolveParties,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { CommandBus, OnCommand } from '@cts/messaging';
import { UnitOfWork } from '@cts/persistence';
import { address, getAddressEncoder, getBase58Encoder } from '@solana/kit';
import { ed25519 } from '@noble/curves/ed25519.js';
import { Ledgers } from '../ledger/ledgers';
import { decimalAmountOf, isSigned, toX402Resource } from './x402-payment.domain';
import { X402PaymentRepository } from './x402-payment.repository';
import { messageBytesOf } from './x402-message';

type Request = RequestOf<typeof ReportX402Settlement>;

/**
 * How we learn that a facilitator settled a payment (docs/decisions.md): the agent reports the
 * transaction signature it got back (PAYMENT-RESPONSE; `x402Fetch` does it). We believe it only when
 * it is the fee payer's ed25519 signature over exactly the message we signed — the transaction's id —
 * and the ledger has confirmed that transaction. Then `agent.x402.paid` is emitted, once.
 */
@Injectable()
export class X402SettlementHandlers {
  constructor(
    private readonly commands: CommandBus,
    private readonly ledgers: Ledgers,
    private readonly payments: X402PaymentRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  @OnCommand(ReportX402Settlement)
  async report(message: Envelope<Request>): Promise<Result<ResponseOf<typeof ReportX402Settlement>>> {
    const { account_id, environment, payment_id, chain_signature } = message.payload;
    const payment = await this.payments.findById(account_id, environment, payment_id);
    if (!payment || !isSigned(payment)) {
      return fail('x402_payment_not_found', `No signed x402 payment ${payment_id}`);
    }
    if (payment.status === 'settled') {
      return payment.chainSignature === chain_signature
        ? ok(toX402Resource(payment))
        : fail('invalid_request', 'This payment settled with another transaction', {
            param: 'chain_signature',
          });
    }
    if (!feePayerSigned(payment.feePayer, chain_signature, messageBytesOf(payment.message))) {
      return fail('invalid_request', 'chain_signature is not the facilitator’s signature of this payment', {
        param: 'chain_signature',
      });
    }
    const ledger = await this.ledgers.of(environment);
    const outcome = await ledger.confirmSignature(
      chain_signature as Parameters<typeof ledger.confirmSignature>[0],
    );
    if (outcome !== 'confirmed') {
      return fail('invalid_request', `The ledger has not confirmed ${chain_signature} (${outcome})`, {
        param: 'chain_signature',
      });
    }
    const parties = await this.commands.send(
      ResolveParties,
      { sender_account_id: account_id, to: payment.payTo, environment },
      contextFrom(message),
    );
    if (!parties.ok) {
      return parties;
    }
    const agent = parties.value.sender;
    const settledAt = new Date();
    await this.unitOfWork.run(async (tx) => {
      if (!(await this.payments.markSettled(payment.id, chain_signature, settledAt, tx.manager))) {
        return;
      }
      await tx.emit(
        AgentX402Paid,
        agent.account_id,
        {
          payment_id: payment.id,
          agent: { account_id: agent.account_id, handle: agent.handle },
          owner: agent.owner ?? { account_id: agent.account_id, handle: agent.handle },
          resource: payment.resource,
          network: payment.network,
          pay_to: payment.payTo,
          asset: payment.asset,
          amount: decimalAmountOf(payment),
          chain_signature,
          paid_at: settledAt.toISOString(),
        },
        contextFrom(message),
      );
    });
    const settled = await this.payments.findById(account_id, environment, payment_id);
    return settled && isSigned(settled)
      ? ok(toX402Resource(settled))
      : fail('x402_payment_not_found', payment_id);
  }
}

/** Whether `signature` (base58) is the fee payer's ed25519 signature over `message`. */
function feePayerSigned(feePayer: string, signature: string, message: Uint8Array): boolean {
  try {
    const bytes = getBase58Encoder().encode(signature);
    return (
      bytes.length === 64 &&
      ed25519.verify(
        new Uint8Array(bytes),
        message,
        new Uint8Array(getAddressEncoder().encode(address(feePayer))),
      )
    );
  } catch {
    return false;
  }
}
