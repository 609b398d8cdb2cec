import { type HeldAgentTransaction, type X402Terms } from '../client/types';

/** A signed x402 payment (`POST /v1/agents/x402/payments`). Its amount is public on the chain. */
export interface X402Payment {
  payment_id: string;
  status: 'signed' | 'settled';
  resource: string;
  scheme: 'exact';
  network: string;
  pay_to: string;
  asset: string;
  /** Decimal in the asset's units (`0.01`). */
  amount: string;
  amount_base_units: string;
  header_name: 'PAYMENT-SIGNATURE';
  /** The value of the retried request's PAYMENT-SIGNATURE header. */
  payment_signature: string;
  amount_public: true;
  notice: string;
  chain_signature: string | null;
  created_at: string;
  settled_at: string | null;
}

export interface X402PayInput {
  /** The PAYMENT-REQUIRED header value (base64) or the decoded 402 answer. */
  payment_required: string | Record<string, unknown>;
  resource: string;
  received_at?: string;
  approved_transaction_id?: string;
}

/** A held x402 payment (HTTP 202): the held transaction, with whom it would pay and for what. */
export interface HeldX402Transaction extends HeldAgentTransaction {
  x402: X402Terms;
}

export type X402PayResult =
  /** `replayed`: an earlier call with the same Idempotency-Key made this payment; nothing new was signed. */
  | { kind: 'payment'; payment: X402Payment; replayed: boolean }
  | { kind: 'pending_approval'; transaction: HeldX402Transaction };

/**
 * The payment waits for the agent's owner (above `hitl_threshold_usdc`): nothing was signed. Once the
 * owner approves `transaction.transaction_id`, call `x402Fetch` again with `approvedTransactionId`.
 */
export class X402PendingApprovalError extends Error {
  override readonly name = 'X402PendingApprovalError';

  constructor(readonly transaction: HeldX402Transaction) {
    super(
      `The payment for this resource waits for its owner's approval (transaction ${transaction.transaction_id}, until ${transaction.expires_at})`,
    );
  }
}

export interface X402FetchOptions {
  /** How to reach the resource; default the global `fetch`. */
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** The payment call's Idempotency-Key: a retried call with the same key pays once. */
  idempotencyKey?: string;
  /** Pay a payment held for approval, once its owner approved it. */
  approvedTransactionId?: string;
}

export interface X402FetchResult {
  /** The resource's answer (the first one when it asked for no payment). */
  response: Response;
  /** The payment made, if the resource asked for one. */
  payment: X402Payment | null;
  /**
   * The payment is one an earlier call with the same idempotency key made (the service replayed its
   * answer, as it was then: `signed` even if it settled since); this call paid nothing new. A resource
   * that already took it answers 402 again: an x402 payment buys one request.
   */
  replayed: boolean;
}
