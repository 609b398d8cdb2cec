import { z } from 'zod';
import { defineCommand } from '../contract';
import { Environment } from '../environment';
import { Timestamp } from '../parties';
import { CommandTopics } from '../topics';
import { HeldX402Payment } from '../approvals/approval.events';
import { HeldTransaction } from '../transfers/transfer.schemas';
import { X402ChainSignature, X402PaymentResource } from './x402.schemas';

/**
 * An agent pays an x402 `402 Payment Required` answer (issue 20). transfer-service picks an `accepts`
 * entry it can pay, gates it through the agent's spend policy like a transfer (same reasons, same
 * daily counter, same threshold → a held transaction), and signs the `exact` payload.
 *
 * - `payment_required`: the 402 answer decoded (the PAYMENT-REQUIRED header's JSON, or the body).
 * - `received_at`: when the caller received the 402 answer; the quote is valid for the chosen entry's
 *   `maxTimeoutSeconds` from then (`quote_expired` after).
 * - `idempotency_key`: the same key never signs twice: the first payment is returned.
 * - `approved_transaction_id`: pay a held payment its owner approved (the quote must name the same
 *   resource, payee, asset and amount).
 *
 * Errors: `invalid_request`, `payment_requirements_unsupported`, `quote_expired`,
 * `policy_violation` (with `reason`), `insufficient_balance`, `transaction_not_found`.
 */
/** A held x402 payment as the agent's call gets it (HTTP 202): the held transaction, with whom it pays and for what. */
export const HeldX402Transaction = HeldTransaction.extend({ x402: HeldX402Payment });
export type HeldX402Transaction = z.infer<typeof HeldX402Transaction>;

export const PayX402 = defineCommand(
  CommandTopics.transferX402Pay,
  z.object({
    account_id: z.string().min(1),
    environment: Environment,
    api_key_id: z.string().min(1).nullable(),
    payment_required: z.record(z.string(), z.unknown()),
    resource: z.string().min(1).max(2048),
    received_at: Timestamp.nullable(),
    idempotency_key: z
      .string()
      .regex(/^(client|internal):./)
      .nullable(),
    approved_transaction_id: z.string().min(1).max(64).nullable(),
  }),
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('payment'), payment: X402PaymentResource }),
    z.object({ kind: z.literal('held'), transaction: HeldX402Transaction }),
  ]),
);

/**
 * The caller reports the facilitator's settlement (the retried request's `PAYMENT-RESPONSE` header,
 * or its transaction signature). transfer-service accepts it only when the signature is the fee
 * payer's signature of exactly the transaction it signed and the ledger has confirmed it; then the
 * payment is `settled` and `agent.x402.paid` is emitted once. Errors: `x402_payment_not_found`,
 * `invalid_request`.
 */
export const ReportX402Settlement = defineCommand(
  CommandTopics.transferX402Settled,
  z.object({
    account_id: z.string().min(1),
    environment: Environment,
    payment_id: z.string().min(1).max(64),
    chain_signature: X402ChainSignature,
  }),
  X402PaymentResource,
);
