import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Address, type Signature } from '@solana/kit';
import { generateAccountKeyMaterial, ownerAddressOf } from '../keys/account-keys';
import { InsufficientFundsOnchainError } from '../ledger.errors';
import {
  type AccountKeyMaterial,
  type ConfidentialAccountView,
  type LedgerAccountView,
} from '../ledger.port';
import { connectInProcess } from '../local-ledger';
import { createLocalLedgerRuntime } from '../local-runtime/create-local-runtime';
import { type LocalLedgerRuntime } from '../local-runtime/local-runtime';
import { type ProofPool, createProofPool } from '../proof-pool/proof-pool';
import { decryptPendingWithElGamal, decryptWithAeKey, decryptWithElGamal } from '../testing/balance-probe';
import { SolanaRpcLedger } from './solana-rpc-ledger';

const USDC = 1_000_000n;

// Confidential transfers build real proofs; with the WebAssembly engine on a loaded 2-core machine one takes
// several seconds, beyond jest's default 5 s.
jest.setTimeout(60_000);

function confidential(view: LedgerAccountView): ConfidentialAccountView {
  if (!view.confidentialReady) {
    throw new Error(`${view.tokenAccount} is not confidential`);
  }
  return view;
}

describe('SolanaRpcLedger on the local runtime', () => {
  let stateDir: string;
  let runtime: LocalLedgerRuntime;
  let pool: ProofPool;
  let ledger: SolanaRpcLedger;
  const alice = generateAccountKeyMaterial();
  const bob = generateAccountKeyMaterial();
  let aliceOwner: Address;
  let bobOwner: Address;

  const read = async (owner: Address, asset = 'USDC') => confidential(await ledger.readAccount(owner, asset));
  const available = async (keys: AccountKeyMaterial, owner: Address, asset = 'USDC') =>
    decryptWithAeKey(keys, await read(owner, asset));

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'cts-ledger-spec-'));
    runtime = await createLocalLedgerRuntime({ stateDir, environment: 'test' });
    pool = createProofPool({ size: 2 });
    ledger = new SolanaRpcLedger({ ...connectInProcess(runtime), proofPool: pool });
    await ledger.init();
    [aliceOwner, bobOwner] = await Promise.all([ledger.openAccounts(alice), ledger.openAccounts(bob)]);
    await ledger.fundTestAccount(alice, 'USDC', 100n * USDC);
  });

  afterAll(async () => {
    await ledger.close();
    await pool.close();
    await runtime.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('exposes the local asset registry: USDC with 6 decimals, SOL with 9', () => {
    expect(ledger.assets().map(({ code, decimals }) => ({ code, decimals }))).toEqual([
      { code: 'USDC', decimals: 6 },
      { code: 'SOL', decimals: 9 },
    ]);
  });

  it('opens confidential accounts for every asset, idempotently, under the owner ed25519 address', async () => {
    expect(await ledger.openAccounts(alice)).toBe(aliceOwner);
    const sol = await read(aliceOwner, 'SOL');
    expect(sol.elgamalPubkey).toHaveLength(32);
    expect(sol.availableBalanceCiphertext).toHaveLength(64);
    expect(decryptWithAeKey(alice, sol)).toBe(0n);
  });

  it('refuses to adopt an account configured under another ElGamal key', async () => {
    const impostor = { ...generateAccountKeyMaterial(), signingSeed: alice.signingSeed };
    await expect(ledger.openAccounts(impostor)).rejects.toMatchObject({ code: 'account_key_mismatch' });
  });

  it('funds a test account straight into its available balance', async () => {
    const view = await read(aliceOwner);
    expect(decryptWithAeKey(alice, view)).toBe(100n * USDC);
    expect(decryptWithElGamal(alice, view.availableBalanceCiphertext)).toBe(100n * USDC);
    expect(view.pendingCreditCounter).toBe(0n);
    expect(view.publicAmount).toBe(0n);
  });

  it('transfers 12.345678 USDC confidentially: pending for the recipient until applied', async () => {
    const amount = 12_345_678n;
    const { signature } = await ledger.transferConfidential({
      from: alice,
      toOwner: bobOwner,
      asset: 'USDC',
      amount,
    });

    const pending = await read(bobOwner);
    expect(pending.pendingCreditCounter).toBe(1n);
    expect(decryptPendingWithElGamal(bob, pending)).toBe(amount);
    expect(decryptWithAeKey(bob, pending)).toBe(0n);
    expect(await ledger.confirmSignature(signature)).toBe('confirmed');

    const applied = await ledger.applyPendingBalance(bob, 'USDC');
    expect(applied.signature).not.toBeNull();
    const bobView = await read(bobOwner);
    expect(decryptWithAeKey(bob, bobView)).toBe(amount);
    expect(decryptWithElGamal(bob, bobView.availableBalanceCiphertext)).toBe(amount);
    expect(await available(alice, aliceOwner)).toBe(100n * USDC - amount);
    expect(await ledger.applyPendingBalance(bob, 'USDC')).toEqual({ signature: null });
  });

  /** Runs `action` while alice's transfer of `amount` to bob lands between the read and the send of bob's `kind` job. */
  async function withCreditDuring(
    kind: string,
    amount: bigint,
    action: () => Promise<unknown>,
  ): Promise<void> {
    const run = pool.run.bind(pool);
    let credited = false;
    const spy = jest.spyOn(pool, 'run').mockImplementation((prepare) =>
      run(async () => {
        const job = await prepare();
        if (job.kind === kind && !credited) {
          credited = true;
          await ledger.transferConfidential({ from: alice, toOwner: bobOwner, asset: 'USDC', amount });
        }
        return job;
      }),
    );
    try {
      await action();
    } finally {
      spy.mockRestore();
    }
    expect(credited).toBe(true);
  }

  it.each([
    ['apply-pending', () => ledger.applyPendingBalance(bob, 'USDC'), 0n],
    ['fund', () => ledger.fundTestAccount(bob, 'USDC', 4n * USDC), 4n * USDC],
  ])(
    'keeps the decryptable balance true when a credit lands while the %s job applies the pending balance',
    async (kind, action, funded) => {
      await ledger.transferConfidential({ from: alice, toOwner: bobOwner, asset: 'USDC', amount: USDC });
      const before = await available(bob, bobOwner);
      await withCreditDuring(kind, 2n * USDC, action);
      await ledger.applyPendingBalance(bob, 'USDC');
      const total = before + 3n * USDC + funded;
      const bobView = await read(bobOwner);
      expect(decryptWithElGamal(bob, bobView.availableBalanceCiphertext)).toBe(total);
      expect(decryptWithAeKey(bob, bobView)).toBe(total);
      // What bob holds can be sent: a transfer proves against the decryptable balance.
      await ledger.transferConfidential({ from: bob, toOwner: aliceOwner, asset: 'USDC', amount: total });
      expect(await available(bob, bobOwner)).toBe(0n);
      await ledger.applyPendingBalance(alice, 'USDC');
    },
  );

  it('rejects a transfer above the available balance with a typed error and moves nothing', async () => {
    const before = [await read(aliceOwner), await read(bobOwner)];
    const attempt = ledger.transferConfidential({
      from: alice,
      toOwner: bobOwner,
      asset: 'USDC',
      amount: 1_000n * USDC,
    });
    await expect(attempt).rejects.toBeInstanceOf(InsufficientFundsOnchainError);
    await expect(attempt).rejects.toMatchObject({ code: 'insufficient_funds_onchain' });
    expect([await read(aliceOwner), await read(bobOwner)]).toEqual(before);
  });

  it('pays a recipient without a confidential account into its public balance', async () => {
    const carol = generateAccountKeyMaterial();
    const carolOwner = await ownerAddressOf(carol);
    const before = await available(alice, aliceOwner);
    const { signature } = await ledger.transferStandard({
      from: alice,
      toOwner: carolOwner,
      asset: 'USDC',
      amount: 2n * USDC,
    });
    expect(await ledger.confirmSignature(signature)).toBe('confirmed');
    const carolView = await ledger.readAccount(carolOwner, 'USDC');
    expect(carolView).toMatchObject({ exists: true, confidentialReady: false, publicAmount: 2n * USDC });
    expect(await available(alice, aliceOwner)).toBe(before - 2n * USDC);
    expect((await read(aliceOwner)).publicAmount).toBe(0n);
  });

  it('moves what a standard transfer paid in, with what is pending, into the available balance on request', async () => {
    const bobBefore = await available(bob, bobOwner);
    const pendingBefore = decryptPendingWithElGamal(bob, await read(bobOwner));
    await ledger.transferStandard({ from: alice, toOwner: bobOwner, asset: 'USDC', amount: 3n * USDC });
    expect((await read(bobOwner)).publicAmount).toBe(3n * USDC);
    expect(await ledger.applyPendingBalance(bob, 'USDC')).toEqual({ signature: null });
    expect((await read(bobOwner)).publicAmount).toBe(3n * USDC);

    const { signature } = await ledger.applyPendingBalance(bob, 'USDC', { depositPublic: true });
    expect(signature).not.toBeNull();
    const bobView = await read(bobOwner);
    expect(bobView).toMatchObject({ publicAmount: 0n, pendingCreditCounter: 0n });
    expect(decryptWithAeKey(bob, bobView)).toBe(bobBefore + pendingBefore + 3n * USDC);
    expect(decryptWithElGamal(bob, bobView.availableBalanceCiphertext)).toBe(
      bobBefore + pendingBefore + 3n * USDC,
    );
    expect(await ledger.applyPendingBalance(bob, 'USDC', { depositPublic: true })).toEqual({
      signature: null,
    });
  });

  it('pays a standard transfer from the public balance but its committed part, withdrawing the rest', async () => {
    const dave = generateAccountKeyMaterial();
    const daveOwner = await ledger.openAccounts(dave);
    await ledger.fundTestAccount(dave, 'USDC', 5n * USDC);
    await ledger.transferStandard({ from: alice, toOwner: daveOwner, asset: 'USDC', amount: 3n * USDC });

    await ledger.transferStandard({
      from: dave,
      toOwner: bobOwner,
      asset: 'USDC',
      amount: 2n * USDC,
      committed: 2n * USDC,
    });

    expect((await read(daveOwner)).publicAmount).toBe(2n * USDC);
    expect(await available(dave, daveOwner)).toBe(4n * USDC);
  });

  it('moves SOL with 9 decimals', async () => {
    const amount = 123_456_789n;
    await ledger.fundTestAccount(alice, 'SOL', 2_500_000_000n);
    await ledger.transferConfidential({ from: alice, toOwner: bobOwner, asset: 'SOL', amount });
    expect(await available(alice, aliceOwner, 'SOL')).toBe(2_500_000_000n - amount);
    expect(decryptPendingWithElGamal(bob, await read(bobOwner, 'SOL'))).toBe(amount);
  });

  it('answers typed errors for unknown assets, bad amounts and missing accounts', async () => {
    const stranger = generateAccountKeyMaterial();
    await expect(ledger.fundTestAccount(alice, 'EUR', 1n)).rejects.toMatchObject({ code: 'unknown_asset' });
    await expect(
      ledger.transferConfidential({ from: alice, toOwner: bobOwner, asset: 'USDC', amount: 0n }),
    ).rejects.toMatchObject({ code: 'invalid_amount' });
    await expect(
      ledger.transferConfidential({
        from: alice,
        toOwner: await ownerAddressOf(stranger),
        asset: 'USDC',
        amount: 1n,
      }),
    ).rejects.toMatchObject({ code: 'account_not_found' });
    await expect(ledger.readAccount(await ownerAddressOf(stranger), 'USDC')).resolves.toMatchObject({
      exists: false,
    });
  });

  it('reports unknown signatures as unknown', async () => {
    const unknown = '1111111111111111111111111111111111111111111111111111111111111111' as Signature;
    expect(await ledger.confirmSignature(unknown)).toBe('unknown');
  });

  it('built every keyed transaction in the worker pool', () => {
    expect(ledger.proofPoolStats()).toMatchObject({ mode: 'worker-threads', size: 2, queued: 0 });
    expect(ledger.proofPoolStats().completed).toBeGreaterThanOrEqual(6);
  });
});
