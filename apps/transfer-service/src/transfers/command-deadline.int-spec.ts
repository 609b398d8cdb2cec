import {
  type AccountParty,
  type CommandEnvelope,
  commandTopicOf,
  CreateTransfer,
  createEnvelope,
  type Envelope,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { HOP_REPLY_MARGIN_MS } from '@cts/messaging';
import { context, TransferHarness } from '../testing/transfer-harness';

// A command carries its deadline (issue 18): transfer-service does not start one that has run out,
// and the commands it sends while handling one inherit what is left of it.
jest.setTimeout(120_000);

const USDC = 1_000_000n;

describe('transfer-service: command deadlines', () => {
  const harness = new TransferHarness();
  let alice: AccountParty;
  let bob: AccountParty;

  beforeAll(async () => {
    await harness.start();
    alice = await harness.openAccount();
    bob = await harness.openAccount();
    await harness.fund(alice, 10n * USDC);
  });

  afterAll(() => harness.stop());

  /** A transfer.create straight onto the bus, with the deadline its sender gave it. */
  async function createWithDeadline(deadlineAt: number): Promise<Result<ResponseOf<typeof CreateTransfer>>> {
    const envelope: CommandEnvelope<RequestOf<typeof CreateTransfer>> = {
      ...createEnvelope(
        CreateTransfer.topic,
        CreateTransfer.version,
        harness.transferRequest(alice, bob.handle, USDC),
        context,
      ),
      deadline_at: deadlineAt,
    };
    const reply = (await harness.service.bus.request(
      commandTopicOf(CreateTransfer.topic),
      envelope,
    )) as Envelope<Result<ResponseOf<typeof CreateTransfer>>>;
    return reply.payload;
  }

  it('does not settle a transfer whose deadline passed before it arrived, and answers deadline_exceeded', async () => {
    const rowsBefore = (await harness.rowsOf(alice)).length;
    const lookupsBefore = harness.peers.accounts.received.length;

    const result = await createWithDeadline(Date.now() - 1);

    expect(result).toMatchObject({
      ok: false,
      error: { code: 'service_unavailable', reason: 'deadline_exceeded' },
    });
    expect(await harness.rowsOf(alice)).toHaveLength(rowsBefore);
    expect(harness.peers.accounts.received).toHaveLength(lookupsBefore);
  });

  it('settles a transfer within its deadline, its recipient lookup inheriting what is left of it', async () => {
    const deadlineAt = Date.now() + 10_000; // within the service's own 15 s timeout

    const result = await createWithDeadline(deadlineAt);

    expect(result).toMatchObject({
      ok: true,
      value: { kind: 'transfer', transfer: { status: 'confirmed' } },
    });
    expect(harness.peers.accounts.received.at(-1)?.deadline_at).toBe(deadlineAt - HOP_REPLY_MARGIN_MS);
  });
});
