import {
  type AgentTransactionResource,
  ApproveAgentTransaction,
  type Environment,
  EventTopics,
  HoldAgentTransaction,
  ListPendingApprovals,
  newId,
  type PartyRef,
  RejectAgentTransaction,
  type RequestOf,
  type Result,
} from '@cts/contracts';
import { type CommandBus, type InProcessBus } from '@cts/messaging';
import { type RunningApp } from '@cts/runtime';
import {
  createTestDatabase,
  newOwnerWithAgent,
  startServiceUnderTest,
  type TestDatabase,
} from '@cts/testing';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { start } from '../approval-service';
import { type ApprovalSettings } from '../approval.settings';
import { FollowUpSweeper } from '../follow-up/follow-up.sweeper';
import { FakeAgentPolicyService, FakeTransferService } from './fake-peers';

export const context = { correlationId: 'req_test', environment: 'test' as const, accountId: null };

/** Long enough that only the sweep at start runs by itself; tests call `sweepOnce`. */
const QUIET: Partial<ApprovalSettings> = { sweepIntervalMs: 3_600_000, followUpLeaseMs: 30_000 };

export interface PublishedEvent {
  type: string;
  payload: Record<string, unknown> & { transaction_id: string };
}

/** One approval-service replica with its own bus and fake peers (transfer-service, agent-policy-service). */
export interface Replica {
  bus: CommandBus;
  rawBus: InProcessBus;
  transfers: FakeTransferService;
  policies: FakeAgentPolicyService;
  published: PublishedEvent[];
  sweeper: FollowUpSweeper;
  service: RunningApp;
}

/** approval-service on a fresh database, for one suite; more replicas can share its database. */
export class ApprovalHarness {
  private db?: TestDatabase;
  private first?: Replica;
  private readonly replicas: Replica[] = [];

  async start(settings: Partial<ApprovalSettings> = {}): Promise<void> {
    this.db = await createTestDatabase();
    this.first = await this.startReplica(settings);
  }

  async startReplica(settings: Partial<ApprovalSettings> = {}): Promise<Replica> {
    const running = await startServiceUnderTest(
      this.required(this.db),
      (runtime) => start(runtime, { ...QUIET, ...settings }),
      {
        observe: [EventTopics.approval],
        peers: (bus) => ({
          transfers: new FakeTransferService(bus),
          policies: new FakeAgentPolicyService(bus),
        }),
      },
    );
    const sweeper = running.service.app.get(FollowUpSweeper);
    await sweeper.idle(); // the sweep at start: tests then decide when the next one runs
    const replica: Replica = {
      bus: running.commands,
      rawBus: running.bus,
      ...running.peers,
      published: running.published as PublishedEvent[],
      sweeper,
      service: running.service,
    };
    this.replicas.push(replica);
    return replica;
  }

  async stopReplica(replica: Replica): Promise<void> {
    this.replicas.splice(this.replicas.indexOf(replica), 1);
    await replica.service.close();
  }

  async stop(): Promise<void> {
    for (const replica of [...this.replicas].reverse()) {
      await replica.service.close();
    }
    await this.db?.drop();
  }

  get main(): Replica {
    return this.required(this.first);
  }

  get bus(): CommandBus {
    return this.main.bus;
  }

  get transfers(): FakeTransferService {
    return this.main.transfers;
  }

  get policies(): FakeAgentPolicyService {
    return this.main.policies;
  }

  get dataSource(): DataSource {
    return this.main.service.app.get(DataSource);
  }

  query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.dataSource.query(sql, params);
  }

  /** A new owner with one agent under it. */
  newOwner(): { owner: PartyRef; agent: PartyRef } {
    return newOwnerWithAgent();
  }

  /** What transfer-service sends for a held agent transfer (ciphertexts are opaque stand-ins). */
  holdRequest(
    parties: { owner: PartyRef; agent: PartyRef },
    overrides: Partial<RequestOf<typeof HoldAgentTransaction>> = {},
  ): RequestOf<typeof HoldAgentTransaction> {
    return {
      environment: 'test',
      agent: parties.agent,
      owner: parties.owner,
      to: '@merchant',
      asset: 'USDC',
      confidential: true,
      sealed_amount: `s1.${randomBytes(40).toString('base64url')}`,
      sealed_memo: null,
      api_key_id: newId('key'),
      reservation_id: newId('tr'),
      approval_window_minutes: 60,
      owner_encrypted_amount: randomBytes(36).toString('base64'),
      requested_at: new Date().toISOString(),
      ...overrides,
    };
  }

  /** Holds a transaction; fails the test if the hold is refused. */
  async held(
    parties = this.newOwner(),
    overrides: Partial<RequestOf<typeof HoldAgentTransaction>> = {},
    bus: CommandBus = this.bus,
  ) {
    const request = this.holdRequest(parties, overrides);
    const reply = await bus.send(HoldAgentTransaction, request, context);
    if (!reply.ok) {
      throw new Error(`hold refused: ${reply.error.message}`);
    }
    return { ...parties, request, id: reply.value.transaction_id, held: reply.value };
  }

  /** A hold whose window ends `inMs` from now (negative: already over). */
  heldExpiringIn(inMs: number, parties = this.newOwner(), bus: CommandBus = this.bus) {
    return this.held(parties, { requested_at: new Date(Date.now() - 60 * 60_000 + inMs).toISOString() }, bus);
  }

  approve(
    caller: string,
    transactionId: string,
    environment: Environment = 'test',
    bus: CommandBus = this.bus,
  ): Promise<Result<AgentTransactionResource>> {
    return bus.send(
      ApproveAgentTransaction,
      { caller_account_id: caller, environment, transaction_id: transactionId },
      context,
    );
  }

  reject(
    caller: string,
    transactionId: string,
    environment: Environment = 'test',
    bus: CommandBus = this.bus,
  ): Promise<Result<AgentTransactionResource>> {
    return bus.send(
      RejectAgentTransaction,
      { caller_account_id: caller, environment, transaction_id: transactionId },
      context,
    );
  }

  async pending(ownerAccountId: string, environment: Environment = 'test') {
    const listed = await this.bus.send(
      ListPendingApprovals,
      { owner_account_id: ownerAccountId, environment },
      context,
    );
    if (!listed.ok) {
      throw new Error(`list failed: ${listed.error.message}`);
    }
    return listed.value.pending;
  }

  /** The stored state of a transaction. */
  async row(id: string) {
    const [row] = await this.query<{
      status: string;
      transfer_id: string | null;
      failure_reason: string | null;
      decided_at: Date | null;
      follow_up_at: Date | null;
      follow_up_attempts: number;
      reservation_released_at: Date | null;
    }>(`SELECT * FROM approvals.agent_transactions WHERE id = $1`, [id]);
    return row;
  }

  /** The events written for a transaction (the outbox every replica shares), in order. */
  async eventsOf(id: string): Promise<string[]> {
    const rows = await this.query<{ type: string }>(
      `SELECT envelope->>'type' AS type FROM approvals.outbox WHERE key = $1 ORDER BY created_at, id`,
      [id],
    );
    return rows.map((r) => r.type);
  }

  /** Every CreateTransfer / release any replica sent. */
  transferCalls(transactionId: string) {
    return this.replicas.flatMap((r) => r.transfers.callsFor(transactionId));
  }

  releases(reservationId: string): number {
    return this.replicas.reduce((n, r) => n + r.policies.releasesOf(reservationId), 0);
  }

  private required<T>(value: T | undefined): T {
    if (value === undefined) {
      throw new Error('the harness is not started');
    }
    return value;
  }
}

/** The error code of a result, or `ok`. */
export const codeOf = (result: Result<unknown>): string => (result.ok ? 'ok' : result.error.code);
