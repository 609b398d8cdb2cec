import { TransferConfirmed } from '@cts/contracts';
import { generateTestCertificates } from '@cts/testing';
import { DispatcherHarness } from '../testing/dispatcher-harness';
import { senderParty, transferPayload } from '../testing/event-factories';
import { CLAIM_DUE } from './delivery.repository';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

describe('the claim of the next due delivery (real PostgreSQL)', () => {
  let harness: DispatcherHarness;

  beforeAll(async () => {
    // No lanes: the deliveries stay due.
    harness = await DispatcherHarness.start(generateTestCertificates(), {}, { maxConcurrentAttempts: 0 });
    // As a fresh table taking a burst: no statistics until the test asks for them.
    await harness.dataSource.query(`ALTER TABLE "webhooks"."deliveries" SET (autovacuum_enabled = false)`);
    const backlog = harness.unique('backlog');
    await harness.subscribe(backlog.accountId, backlog.path);
    for (let i = 0; i < 500; i++) {
      harness.publish(
        TransferConfirmed,
        transferPayload({
          transfer_id: `tr_backlog_${i}`,
          sender: senderParty(backlog.accountId, '@backlog'),
        }),
      );
    }
    await harness.instance.bus.drain();
  }, 30_000);

  afterAll(async () => {
    await harness.close();
  });

  const plan = async (): Promise<PlanNode[]> => {
    const rows = await harness.dataSource.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(
      `EXPLAIN (FORMAT JSON) ${CLAIM_DUE.text}`,
      [new Date(), [], [], 4, null],
    );
    return rows.flatMap((row) => nodesOf(row['QUERY PLAN'][0].Plan));
  };

  it('walks the due index in order instead of sorting every due row, before statistics exist', async () => {
    const [{ due }] = await harness.dataSource.query<{ due: number }[]>(
      `SELECT count(*)::int AS due FROM "webhooks"."deliveries" WHERE next_attempt_at IS NOT NULL`,
    );
    expect(due).toBe(500);
    const nodes = await plan();
    expect(nodes.map((n) => n['Node Type'])).not.toContain('Sort');
    expect(nodes.map((n) => n['Index Name'])).toContain('IDX_deliveries_due');
  });

  it('does so with statistics too', async () => {
    await harness.dataSource.query(`ANALYZE "webhooks"."deliveries"`);
    await harness.dataSource.query(`ANALYZE "webhooks"."subscriptions"`);
    const nodes = await plan();
    expect(nodes.map((n) => n['Node Type'])).not.toContain('Sort');
    expect(nodes.map((n) => n['Index Name'])).toContain('IDX_deliveries_due');
  });
});
