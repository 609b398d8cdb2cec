import { type AccountParty, ListTransfers, type RequestOf } from '@cts/contracts';
import { context, TransferHarness } from '../testing/transfer-harness';

// transfer-service on real PostgreSQL: listing a reader's transfers (spec §4.3).
jest.setTimeout(120_000);

const USDC = 1_000_000n;

describe('transfer-service: listing transfers', () => {
  const harness = new TransferHarness();
  let alice: AccountParty;
  let bob: AccountParty;
  let carol: AccountParty;
  /** Alice's transfers, oldest first: three sent to Bob, then one received from him. */
  const ids: string[] = [];
  const createdAt: string[] = [];

  const list = async (reader: AccountParty, query: Partial<RequestOf<typeof ListTransfers>> = {}) => {
    const result = await harness.service.commands.send(
      ListTransfers,
      { account_id: reader.account_id, environment: 'test', limit: 20, offset: 0, ...query },
      context,
    );
    if (!result.ok) {
      throw new Error(`list failed: ${result.error.message}`);
    }
    return result.value;
  };

  beforeAll(async () => {
    await harness.start();
    [alice, bob, carol] = [
      await harness.openAccount(),
      await harness.openAccount(),
      await harness.openAccount(),
    ];
    await harness.fund(alice, 10n * USDC);
    await harness.fund(bob, 10n * USDC);
    for (const [from, to] of [
      [alice, bob],
      [alice, bob],
      [alice, bob],
      [bob, alice],
    ] as const) {
      const result = await harness.send(from, to.handle, USDC);
      if (!result.ok || result.value.kind !== 'transfer') {
        throw new Error(`expected a transfer, got ${JSON.stringify(result)}`);
      }
      ids.push(result.value.transfer.transfer_id);
      createdAt.push(result.value.transfer.created_at);
    }
    // A failed transfer to filter on: settling one for real needs a ledger refusal.
    await harness.service.query(`UPDATE transfers.transfers SET status = 'failed' WHERE id = $1`, [ids[1]]);
  });

  afterAll(() => harness.stop());

  it('pages newest first over what the reader sent and received, and says when more remain', async () => {
    const first = await list(alice, { limit: 3 });
    expect(first.transfers.map((t) => t.transfer_id)).toEqual([ids[3], ids[2], ids[1]]);
    expect(first.transfers.map((t) => t.direction)).toEqual(['received', 'sent', 'sent']);
    expect(first).toMatchObject({ limit: 3, offset: 0, has_more: true });

    const rest = await list(alice, { limit: 3, offset: 3 });
    expect(rest.transfers.map((t) => t.transfer_id)).toEqual([ids[0]]);
    expect(rest.has_more).toBe(false);
  });

  it('filters by status and by a creation window, both bounds excluded', async () => {
    const failed = await list(alice, { status: 'failed' });
    expect(failed.transfers.map((t) => t.transfer_id)).toEqual([ids[1]]);

    const between = await list(alice, { from: createdAt[0], to: createdAt[3] });
    expect(between.transfers.map((t) => t.transfer_id)).toEqual([ids[2], ids[1]]);

    const confirmedSince = await list(alice, { status: 'confirmed', from: createdAt[0] });
    expect(confirmedSince.transfers.map((t) => t.transfer_id)).toEqual([ids[3], ids[2]]);
  });

  it("shows nobody else's transfers, and none of another environment", async () => {
    expect((await list(carol)).transfers).toEqual([]);
    expect((await list(alice, { environment: 'live' })).transfers).toEqual([]);
    expect((await list(bob)).transfers).toHaveLength(4);
  });
});
