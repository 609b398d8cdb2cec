import {
  type AccountParty,
  EvaluateAgentSpend,
  fail,
  GetAccount,
  HoldAgentTransaction,
  newId,
  ok,
  ReleaseSpendReservation,
  ResolveParties,
  type CommandEnvelope,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { type InProcessBus } from '@cts/messaging';
import { type FakeResponder, serveCommand } from '@cts/testing';

/**
 * account-service as transfer-service sees it: resolves `to` among the accounts the test registered
 * (by handle or address), anything else that looks like an address is outside the service; reads a
 * registered account back (`GetAccount`, for balances and x402 payments).
 */
export class FakeAccountService {
  readonly received: CommandEnvelope<RequestOf<typeof ResolveParties>>[] = [];
  readonly reads: CommandEnvelope<RequestOf<typeof GetAccount>>[] = [];
  /** While set, every answer waits for it. */
  holdAnswersUntil: Promise<void> | null = null;
  private readonly accounts = new Map<string, AccountParty>();

  constructor(bus: InProcessBus) {
    serveCommand(bus, ResolveParties, this.received, async ({ sender_account_id, to }) => {
      await this.holdAnswersUntil;
      const sender = this.accounts.get(sender_account_id);
      if (!sender) {
        return fail('not_found', 'No such account');
      }
      const recipient = [...this.accounts.values()].find(
        (a) => a.handle === to.toLowerCase() || a.address === to,
      );
      if (recipient) {
        return ok({ sender, recipient: { ...recipient, kind: 'account' as const } });
      }
      return to.startsWith('@')
        ? fail('recipient_not_found', `No account ${to}`, { param: 'to' })
        : ok({ sender, recipient: { kind: 'external' as const, address: to } });
    });
    serveCommand(bus, GetAccount, this.reads, ({ account_id }) => {
      const party = this.accounts.get(account_id);
      return party
        ? ok({
            account_id,
            handle: party.handle,
            type: party.type,
            public_key: party.address,
            kyc_status: party.kyc_status,
            created_at: new Date(0).toISOString(),
          })
        : fail('not_found', 'No such account');
    });
  }

  register(party: AccountParty): AccountParty {
    this.accounts.set(party.account_id, party);
    return party;
  }

  update(accountId: string, changes: Partial<AccountParty>): void {
    const party = this.accounts.get(accountId);
    if (party) {
      this.accounts.set(accountId, { ...party, ...changes });
    }
  }
}

type Evaluation = Result<ResponseOf<typeof EvaluateAgentSpend>>;

/**
 * agent-policy-service: allows every agent transfer unless `decide` says otherwise; records
 * evaluations and releases (a release frees a reservation once).
 */
export class FakeAgentPolicyService {
  readonly evaluations: CommandEnvelope<RequestOf<typeof EvaluateAgentSpend>>[] = [];
  readonly releases: CommandEnvelope<RequestOf<typeof ReleaseSpendReservation>>[] = [];
  decide: ((request: RequestOf<typeof EvaluateAgentSpend>) => Evaluation) | null = null;

  constructor(
    bus: InProcessBus,
    private readonly ownerOf: (agentAccountId: string) => {
      agent: { account_id: string; handle: string };
      owner: { account_id: string; handle: string };
    },
  ) {
    serveCommand(
      bus,
      EvaluateAgentSpend,
      this.evaluations,
      (request) => this.decide?.(request) ?? this.allow(request),
    );
    const released = new Set<string>();
    serveCommand(bus, ReleaseSpendReservation, this.releases, ({ reservation_id }) => {
      const first = !released.has(reservation_id);
      released.add(reservation_id);
      return ok({ released: first });
    });
  }

  allow(request: RequestOf<typeof EvaluateAgentSpend>, decision: 'allow' | 'hold' = 'allow'): Evaluation {
    return ok({
      decision,
      ...this.ownerOf(request.agent_account_id),
      approval_window_minutes: 60,
      policy_id: 'pol_test',
    });
  }

  releasesOf(reservationId: string): number {
    return this.releases.filter((e) => e.payload.reservation_id === reservationId).length;
  }
}

/** approval-service: holds what it is asked to, answering the held transaction. */
export class FakeApprovalService {
  readonly holds: CommandEnvelope<RequestOf<typeof HoldAgentTransaction>>[] = [];
  respond: FakeResponder<typeof HoldAgentTransaction> | null = null;

  constructor(bus: InProcessBus) {
    serveCommand(bus, HoldAgentTransaction, this.holds, (request, envelope) => {
      if (this.respond) {
        return this.respond(request, envelope);
      }
      const expires = new Date(Date.parse(request.requested_at) + request.approval_window_minutes * 60_000);
      return ok({
        transaction_id: newId('atx'),
        status: 'pending_approval' as const,
        agent: request.agent.handle,
        to: request.to,
        asset: request.asset,
        requested_at: request.requested_at,
        expires_at: expires.toISOString(),
      });
    });
  }
}
