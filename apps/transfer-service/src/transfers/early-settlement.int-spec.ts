import { type AccountParty } from '@cts/contracts';
import { eventually } from '@cts/testing';
import { Ledgers } from '../ledger/ledgers';
import { AccountLocks, accountLockKey } from '../locks/account-locks';
import { codeOf, TransferHarness } from '../testing/transfer-harness';

// A transfer between parties the sender already paid starts settling while account-service answers,
// and writes nothing until its answer matches (docs/decisions.md, "Settling while the parties are
// confirmed"). Real PostgreSQL and the in-process ledger; account-service is a fake.
jest.setTimeout(120_000);

const USDC = 1_000_000n;

describe('transfer-service: settling while the parties are confirmed', () => {
  const harness = new TransferHarness();
  let alice: AccountParty;
  let bob: AccountParty;

  beforeAll(async () => {
    await harness.start();
    alice = await harness.openAccount();
    bob = await harness.openAccount();
    await harness.fund(alice, 20n * USDC);
    expect(codeOf(await harness.send(alice, bob.handle, USDC))).toBe('ok');
  });

  afterEach(() => {
    harness.peers.accounts.holdAnswersUntil = null;
  });

  afterAll(() => harness.stop());

  const senderLocked = async (sender: AccountParty) =>
    (await harness.service.service.app
      .get(AccountLocks)
      .tryRun(accountLockKey(sender.account_id, 'test', 'USDC'), () => Promise.resolve(true))) === undefined;

  it('locks the sender before account-service answers, and records nothing until it has', async () => {
    let answer = () => {};
    harness.peers.accounts.holdAnswersUntil = new Promise<void>((resolve) => (answer = resolve));
    const recorded = (await harness.rowsOf(alice)).length;

    const sending = harness.send(alice, bob.handle, 2n * USDC);
    await eventually(async () => expect(await senderLocked(alice)).toBe(true));
    expect(await harness.rowsOf(alice)).toHaveLength(recorded);
    answer();

    const result = await sending;
    expect(result.ok && result.value.kind === 'transfer' && result.value.transfer.status).toBe('confirmed');
    expect(await harness.rowsOf(alice)).toHaveLength(recorded + 1);
  });

  it('refuses a sender whose KYC was withdrawn since the last transfer, before anything is recorded or sent', async () => {
    const carol = await harness.openAccount();
    await harness.fund(carol, 5n * USDC);
    expect(codeOf(await harness.send(carol, bob.handle, USDC))).toBe('ok');
    harness.peers.accounts.update(carol.account_id, { kyc_status: 'unverified' });

    expect(codeOf(await harness.send(carol, bob.handle, USDC))).toBe('kyc_required');
    // Also where the balance would not have sufficed: the KYC refusal, not insufficient_balance.
    expect(codeOf(await harness.send(carol, bob.handle, 50n * USDC))).toBe('kyc_required');
    expect(await harness.rowsOf(carol)).toHaveLength(1);

    // Nothing was sent: all that is left (4 USDC) can still go once KYC is back.
    harness.peers.accounts.update(carol.account_id, { kyc_status: 'verified' });
    expect(codeOf(await harness.send(carol, bob.handle, 4n * USDC))).toBe('ok');
    expect(codeOf(await harness.send(carol, bob.handle, 1n))).toBe('insufficient_balance');
  });

  it('settles on the new parties when the recipient changed since the last transfer', async () => {
    const dave = await harness.openAccount();
    await harness.fund(dave, 5n * USDC);
    expect(codeOf(await harness.send(dave, bob.handle, USDC))).toBe('ok');
    const erin = await harness.openAccount();
    // `@bob` now resolves to erin's account (a handle that moved, as seen by this service).
    harness.peers.accounts.update(bob.account_id, { handle: '@moved' });
    harness.peers.accounts.update(erin.account_id, { handle: bob.handle });

    const result = await harness.send(dave, bob.handle, 2n * USDC);
    try {
      expect(result.ok && result.value.kind === 'transfer' && result.value.transfer.to).toBe(bob.handle);
      const [, second] = await harness.rowsOf(dave);
      expect(second).toMatchObject({ recipient_account_id: erin.account_id, status: 'confirmed' });
    } finally {
      harness.peers.accounts.update(erin.account_id, { handle: erin.handle });
      harness.peers.accounts.update(bob.account_id, { handle: bob.handle });
    }
  });

  it('answers a retry between known parties with its first transfer, moving the money once', async () => {
    const frank = await harness.openAccount();
    await harness.fund(frank, 3n * USDC);
    expect(codeOf(await harness.send(frank, bob.handle, USDC))).toBe('ok');

    const first = await harness.send(frank, bob.handle, 2n * USDC, { idempotency_key: 'client:early-1' });
    const again = await harness.send(frank, bob.handle, 2n * USDC, { idempotency_key: 'client:early-1' });

    expect(first.ok && again.ok).toBe(true);
    if (first.ok && again.ok && first.value.kind === 'transfer' && again.value.kind === 'transfer') {
      expect(again.value.transfer.transfer_id).toBe(first.value.transfer.transfer_id);
    }
    expect(await harness.rowsOf(frank)).toHaveLength(2);
    expect(codeOf(await harness.send(frank, bob.handle, 1n))).toBe('insufficient_balance');
  });

  it('answers a retry with its first transfer even when the early settlement fails (the ledger unreadable)', async () => {
    const grace = await harness.openAccount();
    await harness.fund(grace, 3n * USDC);
    expect(codeOf(await harness.send(grace, bob.handle, USDC))).toBe('ok');
    const first = await harness.send(grace, bob.handle, USDC, { idempotency_key: 'client:early-2' });
    const ledger = await harness.service.service.app.get(Ledgers).of('test');
    const unreadable = jest
      .spyOn(ledger, 'readForConfidentialTransfer')
      .mockRejectedValueOnce(new Error('the ledger cannot be reached'));

    const again = await harness.send(grace, bob.handle, USDC, { idempotency_key: 'client:early-2' });

    expect(unreadable).toHaveBeenCalled();
    unreadable.mockRestore();
    expect(first.ok && again.ok).toBe(true);
    if (first.ok && again.ok && first.value.kind === 'transfer' && again.value.kind === 'transfer') {
      expect(again.value.transfer.transfer_id).toBe(first.value.transfer.transfer_id);
    }
    expect(await harness.rowsOf(grace)).toHaveLength(2);
  });
});
