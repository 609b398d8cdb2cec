import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Address } from '@solana/kit';
import { generateAccountKeyMaterial } from '../keys/account-keys';
import { type ConfidentialAccountView, type LedgerAccountView } from '../ledger.port';
import { connectInProcess } from '../local-ledger';
import { type ProofPool, createProofPool } from '../proof-pool/proof-pool';
import { SolanaRpcLedger } from '../solana-rpc/solana-rpc-ledger';
import { decryptPendingWithElGamal, decryptWithAeKey } from '../testing/balance-probe';
import { createLocalLedgerRuntime } from './create-local-runtime';
import { type LocalLedgerRuntime } from './local-runtime';

function confidential(view: LedgerAccountView): ConfidentialAccountView {
  if (!view.confidentialReady) {
    throw new Error(`${view.tokenAccount} is not confidential`);
  }
  return view;
}

// Restarting runtimes and proving transfers takes close to jest's default 5 s on a quiet 2-core machine.
jest.setTimeout(60_000);

describe('local ledger state', () => {
  let stateDir: string;
  let pool: ProofPool;
  const open: { runtime: LocalLedgerRuntime; ledger: SolanaRpcLedger }[] = [];

  const start = async (environment: 'test' | 'live' = 'test', directory = stateDir) => {
    const runtime = await createLocalLedgerRuntime({ stateDir: directory, environment });
    const ledger = new SolanaRpcLedger({ ...connectInProcess(runtime), proofPool: pool });
    open.push({ runtime, ledger });
    return { runtime, ledger };
  };
  const stop = async ({ runtime, ledger }: { runtime: LocalLedgerRuntime; ledger: SolanaRpcLedger }) => {
    await ledger.close();
    await runtime.close();
    open.splice(
      open.findIndex((entry) => entry.runtime === runtime),
      1,
    );
  };

  beforeAll(() => {
    pool = createProofPool({ size: 2 });
  });
  beforeEach(() => {
    stateDir = mkdtempSync(join(tmpdir(), 'cts-ledger-state-'));
  });
  afterEach(async () => {
    for (const entry of [...open]) {
      await stop(entry);
    }
    rmSync(stateDir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('keeps balances, mints and signatures across a restart', async () => {
    const alice = generateAccountKeyMaterial();
    const bob = generateAccountKeyMaterial();
    const first = await start();
    const [aliceOwner, bobOwner] = (await Promise.all([
      first.ledger.openAccounts(alice),
      first.ledger.openAccounts(bob),
    ])) as [Address, Address];
    await first.ledger.fundTestAccount(alice, 'USDC', 50_000_000n);
    const { signature } = await first.ledger.transferConfidential({
      from: alice,
      toOwner: bobOwner,
      asset: 'USDC',
      amount: 7_654_321n,
    });
    const assets = first.ledger.assets();
    await stop(first);

    const second = await start();
    expect(second.ledger.assets()).toEqual(assets);
    expect(await second.ledger.confirmSignature(signature)).toBe('confirmed');
    expect(decryptWithAeKey(alice, confidential(await second.ledger.readAccount(aliceOwner, 'USDC')))).toBe(
      42_345_679n,
    );
    expect(
      decryptPendingWithElGamal(bob, confidential(await second.ledger.readAccount(bobOwner, 'USDC'))),
    ).toBe(7_654_321n);
    // The restarted ledger keeps working: the fee payer and the accounts came back with their lamports.
    await second.ledger.transferConfidential({
      from: alice,
      toOwner: bobOwner,
      asset: 'USDC',
      amount: 345_679n,
    });
    expect(decryptWithAeKey(alice, confidential(await second.ledger.readAccount(aliceOwner, 'USDC')))).toBe(
      42_000_000n,
    );
  });

  it('keeps a landed transaction when the process dies right after it', async () => {
    const alice = generateAccountKeyMaterial();
    const bob = generateAccountKeyMaterial();
    const running = await start();
    const [aliceOwner, bobOwner] = (await Promise.all([
      running.ledger.openAccounts(alice),
      running.ledger.openAccounts(bob),
    ])) as [Address, Address];
    await running.ledger.fundTestAccount(alice, 'USDC', 10_000_000n);
    const { signature } = await running.ledger.transferConfidential({
      from: alice,
      toOwner: bobOwner,
      asset: 'USDC',
      amount: 2_500_000n,
    });

    const airdrop = running.runtime.airdrop(bobOwner, 1_000_000n);
    const bobLamports = running.runtime.account(bobOwner)?.lamports;

    // The files as a SIGKILL would leave them right after that call returned: no close, no later
    // write, not even a tick of the event loop. The lock file goes too, as its process would be gone.
    const crashed = mkdtempSync(join(tmpdir(), 'cts-ledger-crashed-'));
    try {
      cpSync(stateDir, crashed, { recursive: true, filter: (source) => !source.endsWith('runtime.lock') });
      const restarted = await start('test', crashed);
      expect(airdrop).not.toBeNull();
      expect(restarted.runtime.signatureStatus(airdrop ?? '')).toEqual({
        slot: expect.any(BigInt),
        err: null,
      });
      expect(restarted.runtime.account(bobOwner)?.lamports).toBe(bobLamports);
      expect(await restarted.ledger.confirmSignature(signature)).toBe('confirmed');
      expect(
        decryptWithAeKey(alice, confidential(await restarted.ledger.readAccount(aliceOwner, 'USDC'))),
      ).toBe(7_500_000n);
      expect(
        decryptPendingWithElGamal(bob, confidential(await restarted.ledger.readAccount(bobOwner, 'USDC'))),
      ).toBe(2_500_000n);
      await stop(restarted);
    } finally {
      rmSync(crashed, { recursive: true, force: true });
    }
  });

  it('keeps operator keys owner-readable only and one runtime per state directory', async () => {
    const { runtime } = await start();
    for (const file of ['fee-payer.key', 'mint-authority.key', 'ledger-state.json', 'ledger-journal.jsonl']) {
      expect(statSync(join(stateDir, 'test', file)).mode & 0o777).toBe(0o600);
    }
    const genesis = JSON.parse(readFileSync(join(stateDir, 'test', 'genesis.json'), 'utf8')) as {
      feePayer: string;
    };
    expect(genesis.feePayer).toBe(runtime.genesis.feePayer);
    await expect(createLocalLedgerRuntime({ stateDir, environment: 'test' })).rejects.toMatchObject({
      code: 'ledger_unavailable',
    });
  });

  it('keeps test and live ledgers apart: own mints, fee payers and accounts', async () => {
    const test = await start('test');
    const live = await start('live');
    const mints = (ledger: SolanaRpcLedger) => ledger.assets().map((asset) => asset.mint);
    expect(mints(test.ledger).some((mint) => mints(live.ledger).includes(mint))).toBe(false);
    expect(test.runtime.genesis.feePayer).not.toBe(live.runtime.genesis.feePayer);

    const alice = generateAccountKeyMaterial();
    const owner = await test.ledger.openAccounts(alice);
    await test.ledger.fundTestAccount(alice, 'USDC', 1_000_000n);
    expect(await live.ledger.readAccount(owner, 'USDC')).toMatchObject({ exists: false });
    await live.ledger.openAccounts(alice);
    await expect(live.ledger.fundTestAccount(alice, 'USDC', 1n)).rejects.toMatchObject({
      code: 'funding_not_allowed',
    });
    expect(decryptWithAeKey(alice, confidential(await live.ledger.readAccount(owner, 'USDC')))).toBe(0n);
  });
});
