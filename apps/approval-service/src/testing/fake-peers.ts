import {
  CreateTransfer,
  type Envelope,
  fail,
  newId,
  ok,
  ReleaseSpendReservation,
  type RequestOf,
  type TransferResource,
} from '@cts/contracts';
import { type InProcessBus } from '@cts/messaging';
import { type FakeResponder, serveCommand as serve } from '@cts/testing';

export function transferResource(
  request: RequestOf<typeof CreateTransfer>,
  overrides: Partial<TransferResource> = {},
): TransferResource {
  const now = new Date().toISOString();
  return {
    transfer_id: request.approved_transfer_id ?? newId('tr'),
    status: 'confirmed',
    direction: 'sent',
    from: '@agent',
    to: request.to,
    asset: request.asset,
    confidential: request.confidential,
    chain_signature: 'fake-signature',
    encrypted_amount: 'ZW5jcnlwdGVk',
    encrypted_memo: null,
    failure_reason: null,
    created_at: now,
    confirmed_at: now,
    ...overrides,
  };
}

/**
 * transfer-service as approval-service sees it: answers CreateTransfer with a confirmed transfer under
 * the reserved id, once per idempotency key (a resend gets the first transfer), after `delayMs`.
 * `respond` replaces the answer; it sees every call, in order.
 */
export class FakeTransferService {
  readonly received: Envelope<RequestOf<typeof CreateTransfer>>[] = [];
  delayMs = 0;
  respond: FakeResponder<typeof CreateTransfer> | null = null;
  private readonly byKey = new Map<string, TransferResource>();

  constructor(bus: InProcessBus) {
    serve(bus, CreateTransfer, this.received, async (request, envelope) => {
      await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      if (this.respond) {
        return this.respond(request, envelope);
      }
      const key = request.idempotency_key ?? newId('req');
      const transfer = this.byKey.get(key) ?? transferResource(request);
      this.byKey.set(key, transfer);
      return ok({ kind: 'transfer' as const, transfer });
    });
  }

  /** The CreateTransfer requests sent for one held transaction. */
  callsFor(transactionId: string): RequestOf<typeof CreateTransfer>[] {
    return this.received
      .map((e) => e.payload)
      .filter((p) => p.idempotency_key === `internal:approval:${transactionId}`);
  }
}

/** agent-policy-service's release: frees a reservation once, answers `released: false` after. */
export class FakeAgentPolicyService {
  readonly received: Envelope<RequestOf<typeof ReleaseSpendReservation>>[] = [];
  private readonly released = new Set<string>();
  /** How many next releases answer `service_unavailable`. */
  failures = 0;

  constructor(bus: InProcessBus) {
    serve(bus, ReleaseSpendReservation, this.received, ({ reservation_id }) => {
      if (this.failures > 0) {
        this.failures -= 1;
        return fail('service_unavailable', 'agent-policy-service is down');
      }
      const first = !this.released.has(reservation_id);
      this.released.add(reservation_id);
      return ok({ released: first });
    });
  }

  releasesOf(reservationId: string): number {
    return this.received.filter((e) => e.payload.reservation_id === reservationId).length;
  }
}
