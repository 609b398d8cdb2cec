import {
  type AgentTransactionResource,
  ApproveAgentTransaction,
  type CommandContract,
  contextFrom,
  createEnvelope,
  type Envelope,
  envelopeSchema,
  type ErrorBody,
  ListPendingApprovals,
  ok,
  RejectAgentTransaction,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { type InProcessBus } from '@cts/messaging';

/**
 * An in-memory approval-service on an in-process bus, for the gateway's tests: it records what it
 * is asked and answers from `transactions`, or with the next queued failure.
 */
export class FakeApprovalService {
  readonly received: Envelope[] = [];
  readonly transactions = new Map<string, AgentTransactionResource>();
  private readonly failures = new Map<string, ErrorBody>();

  constructor(private readonly bus: InProcessBus) {
    this.on(ListPendingApprovals, () =>
      ok({
        pending: [
          {
            transaction_id: 'atx_pending',
            agent: '@alice/bot',
            to: 'shop.example.com',
            asset: 'USDC' as const,
            requested_at: '2030-01-01T00:00:00.000Z',
            expires_at: '2030-01-01T01:00:00.000Z',
            encrypted_amount: 'b3duZXItY2lwaGVydGV4dA==',
          },
        ],
      }),
    );
    this.on(ApproveAgentTransaction, (req) => this.decided(req.transaction_id, 'approved'));
    this.on(RejectAgentTransaction, (req) => this.decided(req.transaction_id, 'rejected'));
  }

  calls<C extends CommandContract>(contract: C): Envelope<RequestOf<C>>[] {
    return this.received.filter((e): e is Envelope<RequestOf<C>> => e.type === contract.topic);
  }

  failNext(contract: CommandContract, error: ErrorBody): void {
    this.failures.set(contract.topic, error);
  }

  private decided(id: string, status: 'approved' | 'rejected'): Result<AgentTransactionResource> {
    return ok({
      transaction_id: id,
      status,
      agent: '@alice/bot',
      to: 'shop.example.com',
      asset: 'USDC',
      requested_at: '2030-01-01T00:00:00.000Z',
      expires_at: '2030-01-01T01:00:00.000Z',
      decided_at: '2030-01-01T00:10:00.000Z',
      transfer_id: status === 'approved' ? 'tr_settled' : null,
    });
  }

  private on<C extends CommandContract>(
    contract: C,
    handler: (request: RequestOf<C>) => Result<ResponseOf<C>>,
  ): void {
    this.bus.registerCommand(contract.topic, (data) => {
      const envelope = envelopeSchema(contract.request).parse(data) as Envelope<RequestOf<C>>;
      this.received.push(envelope);
      const failure = this.failures.get(contract.topic);
      this.failures.delete(contract.topic);
      const result = failure ? { ok: false as const, error: failure } : handler(envelope.payload);
      return Promise.resolve(
        createEnvelope(`${contract.topic}.reply`, contract.version, result, contextFrom(envelope)),
      );
    });
  }
}
