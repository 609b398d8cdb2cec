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
import { type CommandBus, type InProcessBus } from '@cts/messaging';
import {
  createTestDatabase,
  newParty,
  type PublishedEvent,
  type ServiceUnderTest,
  startServiceUnderTest,
  type TestDatabase,
} from '@cts/testing';
import { type DataSource } from 'typeorm';
import { start } from '../agent-policy-service';

export const context = { correlationId: 'req_test', environment: 'test' as const, accountId: null };

export { type PublishedEvent };

/** agent-policy-service on a fresh database and its own in-process bus, for one suite. */
export class AgentPolicyHarness {
  private db?: TestDatabase;
  private running?: ServiceUnderTest;

  async start(): Promise<void> {
    this.db = await createTestDatabase();
    this.running = await startServiceUnderTest(this.db, start, { observe: [EventTopics.agent] });
  }

  async stop(): Promise<void> {
    await this.running?.close();
    await this.db?.drop();
  }

  get published(): PublishedEvent[] {
    return this.required(this.running).published;
  }

  get bus(): CommandBus {
    return this.required(this.running).commands;
  }

  get rawBus(): InProcessBus {
    return this.required(this.running).bus;
  }

  get dataSource(): DataSource {
    return this.required(this.running).dataSource;
  }

  query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.required(this.running).query<T>(sql, params);
  }

  /** An amount in base units, sealed as the gateway seals it for this agent. */
  seal(agentAccountId: string, amount: bigint): string {
    const key = parseSealingKey(this.required(this.running).runtime.secrets.dataSealingKey);
    return sealAmount(key, amount, amountSealingContext(agentAccountId));
  }

  newOwner(type: 'personal' | 'business' | 'agent' = 'business') {
    return { ...newParty('owner'), type };
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
      addresses: {
        live: `LiveKey${Math.random().toString(36).slice(2)}`,
        test: `TestKey${Math.random().toString(36).slice(2)}`,
      },
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
