import {
  amountSealingContext,
  type Agent,
  CreateAgent,
  EvaluateAgentSpend,
  EventTopics,
  newId,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { parseSealingKey, sealAmount } from '@cts/crypto';
import { type CommandBus } from '@cts/messaging';
import { type RunningApp } from '@cts/platform';
import {
  createTestDatabase,
  inProcessCommandBus,
  inProcessTestRuntime,
  type TestDatabase,
} from '@cts/testing';
import { DataSource } from 'typeorm';
import { start } from '../agent-policy-service';

export const context = { correlationId: 'req_test', environment: 'test' as const, accountId: null };

export interface PublishedEvent {
  type: string;
  payload: Record<string, unknown>;
}

/** agent-policy-service on a fresh database and its own in-process bus, for one suite. */
export class AgentPolicyHarness {
  readonly published: PublishedEvent[] = [];
  private db?: TestDatabase;
  private service?: RunningApp;
  private runtime?: ReturnType<typeof inProcessTestRuntime>;
  private owners = 0;

  async start(): Promise<void> {
    this.db = await createTestDatabase();
    this.runtime = inProcessTestRuntime(this.db.url);
    this.runtime.bus.subscribe(EventTopics.agent, 'test-observer', (data) => {
      this.published.push(data as PublishedEvent);
      return Promise.resolve();
    });
    this.service = await start(this.runtime);
  }

  async stop(): Promise<void> {
    await this.service?.close();
    await this.db?.drop();
  }

  get bus(): CommandBus {
    return inProcessCommandBus(this.required(this.runtime).bus);
  }

  get rawBus() {
    return this.required(this.runtime).bus;
  }

  get dataSource(): DataSource {
    return this.required(this.service).app.get(DataSource);
  }

  query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.dataSource.query(sql, params);
  }

  /** An amount in base units, sealed as the gateway seals it for this agent. */
  seal(agentAccountId: string, amount: bigint): string {
    const key = parseSealingKey(this.required(this.runtime).secrets.dataSealingKey);
    return sealAmount(key, amount, amountSealingContext(agentAccountId));
  }

  newOwner(type: 'personal' | 'business' | 'agent' = 'business') {
    this.owners += 1;
    return { account_id: newId('acct'), handle: `@owner_${this.owners}_${Date.now() % 100_000}`, type };
  }

  createRequest(
    owner: { account_id: string; handle: string; type: 'personal' | 'business' | 'agent' },
    name: string,
    spend_policy: Record<string, unknown>,
  ) {
    return {
      owner,
      agent_account_id: newId('acct'),
      name,
      handle: `${owner.handle}/${name}`,
      public_key: `PubKey${Math.random().toString(36).slice(2)}`,
      spend_policy,
    } satisfies RequestOf<typeof CreateAgent>;
  }

  /** A new owner with one agent under `policy`; fails the test if creation fails. */
  async agentWith(
    policy: Record<string, unknown>,
  ): Promise<{ agent: Agent; owner: { account_id: string; handle: string } }> {
    const owner = this.newOwner();
    const created = await this.bus.send(CreateAgent, this.createRequest(owner, 'bot', policy), context);
    if (!created.ok) {
      throw new Error(`agent creation failed: ${created.error.message}`);
    }
    return { agent: created.value, owner };
  }

  evaluate(
    agent: { account_id: string },
    amount: bigint,
    overrides: Partial<RequestOf<typeof EvaluateAgentSpend>> = {},
  ): Promise<Result<ResponseOf<typeof EvaluateAgentSpend>>> {
    return this.bus.send(
      EvaluateAgentSpend,
      {
        agent_account_id: agent.account_id,
        environment: 'test',
        reservation_id: newId('tr'),
        to: '@recipient',
        asset: 'USDC',
        sealed_amount: this.seal(agent.account_id, amount),
        mode: 'attempt',
        at: '2026-03-10T12:00:00.000Z',
        ...overrides,
      },
      context,
    );
  }

  private required<T>(value: T | undefined): T {
    if (value === undefined) {
      throw new Error('the harness is not started');
    }
    return value;
  }
}

/** The decision of an evaluation, or the violation reason, or the error code. */
export function outcome(result: Result<ResponseOf<typeof EvaluateAgentSpend>>): string {
  if (result.ok) {
    return result.value.decision;
  }
  return result.error.reason ?? result.error.code;
}
