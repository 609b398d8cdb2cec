import { randomBytes } from 'node:crypto';
import { generateKeyPairSigner, getBase58Decoder } from '@solana/kit';
import { type Token } from '@solana-program/token-2022';
import { generateAccountKeyMaterial } from '../keys/account-keys';
import { AccountNotFoundError, LedgerError } from '../ledger.errors';
import { type BuildJob, type SigningContext } from '../transactions/build-job';
import { createProofPool } from './proof-pool';
import { resolveProofWorker } from './worker-script';

const context = (): SigningContext => ({
  feePayerSeed: new Uint8Array(randomBytes(32)),
  blockhash: getBase58Decoder().decode(randomBytes(32)),
  lastValidBlockHeight: 1_000n,
  rent: { baseLamports: 890_880n, lamportsPerByte: 6_960n },
});

const configureJob = async (): Promise<BuildJob> => ({
  kind: 'configure-accounts',
  context: context(),
  keys: generateAccountKeyMaterial(),
  mints: [(await generateKeyPairSigner()).address, (await generateKeyPairSigner()).address],
});

describe('proof pool', () => {
  it('runs the TypeScript worker from sources under jest', () => {
    expect(resolveProofWorker('wasm')?.mode).toBe('sources');
  });

  it('builds and signs in worker threads, exposing its queue depth', async () => {
    const pool = createProofPool({ size: 1 });
    try {
      const runs = [pool.run(configureJob), pool.run(configureJob), pool.run(configureJob)];
      expect(pool.queueDepth()).toBe(2);
      expect(pool.stats()).toMatchObject({ mode: 'worker-threads', size: 1, busy: 1, queued: 2 });
      const plans = await Promise.all(runs);
      for (const plan of plans) {
        // Both mints' configure instructions fit one transaction once the shared accounts are deduplicated.
        expect(plan.transactions.length).toBeGreaterThanOrEqual(1);
        expect(plan.transactions[plan.primaryIndex]?.signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
      }
      expect(pool.stats()).toMatchObject({ busy: 0, queued: 0, completed: 3, failed: 0 });
    } finally {
      await pool.close();
    }
  });

  it.each([1, 0])('keeps errors typed across the thread boundary (size %i)', async (size) => {
    const pool = createProofPool({ size });
    try {
      const notConfidential = { extensions: { __option: 'None' } } as unknown as Token;
      const transfer = async (): Promise<BuildJob> => ({
        ...(await configureJob()),
        kind: 'confidential-transfer',
        mint: (await generateKeyPairSigner()).address,
        mintState: {} as never,
        source: (await generateKeyPairSigner()).address,
        sourceState: notConfidential,
        destination: (await generateKeyPairSigner()).address,
        destinationState: notConfidential,
        amount: 1n,
      });
      await expect(pool.run(transfer)).rejects.toMatchObject({
        name: 'LedgerError',
        code: 'account_not_confidential',
      });
      const missing = new AccountNotFoundError('gone');
      await expect(pool.run(() => Promise.reject(missing))).rejects.toBe(missing);
      expect(pool.stats().failed).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('rejects queued and later jobs once closed', async () => {
    const pool = createProofPool({ size: 1 });
    const outcomes = Promise.allSettled([pool.run(configureJob), pool.run(configureJob)]);
    await pool.close();
    for (const outcome of await outcomes) {
      expect(outcome).toMatchObject({ status: 'rejected', reason: { code: 'proof_pool_closed' } });
    }
    await expect(pool.run(configureJob)).rejects.toBeInstanceOf(LedgerError);
  });
});
