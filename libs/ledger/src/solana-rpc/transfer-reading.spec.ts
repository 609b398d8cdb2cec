import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Address, createSolanaRpcFromTransport } from '@solana/kit';
import { generateAccountKeyMaterial } from '../keys/account-keys';
import { type AccountKeyMaterial, type ConfidentialTransferReading } from '../ledger.port';
import { connectInProcess } from '../local-ledger';
import { createLocalLedgerRuntime } from '../local-runtime/create-local-runtime';
import { type LocalLedgerRuntime } from '../local-runtime/local-runtime';
import { countingTransport } from '../testing/counting-transport';
import { type ProofPool, createProofPool } from '../proof-pool/proof-pool';
import { decryptWithAeKey } from '../testing/balance-probe';
import { SolanaRpcLedger } from './solana-rpc-ledger';

jest.setTimeout(60_000);

const USDC = 1_000_000n;

describe('a confidential transfer handed the reading of its balance check', () => {
  let stateDir: string;
  let runtime: LocalLedgerRuntime;
  let pool: ProofPool;
  let ledger: SolanaRpcLedger;
  const requests: string[] = [];
  let sender: AccountKeyMaterial;
  let senderOwner: Address;
  let recipientOwner: Address;
  let otherOwner: Address;

  /** An adapter on the shared runtime and pool whose requests land in `requests`. */
  const countingAdapter = (transferBlockhashReuseMs: number) =>
    new SolanaRpcLedger({
      ...connectInProcess(runtime),
      rpc: createSolanaRpcFromTransport(countingTransport(runtime, requests)),
      proofPool: pool,
      transferBlockhashReuseMs,
    });

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'cts-transfer-reading-'));
    runtime = await createLocalLedgerRuntime({ stateDir, environment: 'test' });
    pool = createProofPool({ size: 1 });
    ledger = countingAdapter(0);
    sender = generateAccountKeyMaterial();
    [senderOwner, recipientOwner, otherOwner] = await Promise.all(
      [sender, generateAccountKeyMaterial(), generateAccountKeyMaterial()].map((keys) =>
        ledger.openAccounts(keys),
      ),
    );
    await ledger.fundTestAccount(sender, 'USDC', 10n * USDC);
  });
  afterAll(async () => {
    await ledger.close();
    await pool.close();
    await runtime.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  const reads = () =>
    requests.filter((method) => method === 'getMultipleAccounts' || method === 'getLatestBlockhash');
  /** 1 USDC from the sender to `toOwner`, handed `reading`; the reads it made of its own. */
  const transferOneUsdc = async (toOwner: Address, reading: ConfidentialTransferReading) => {
    requests.length = 0;
    await ledger.transferConfidential({ from: sender, toOwner, asset: 'USDC', amount: USDC, reading });
    return reads();
  };
  const pendingCredits = async (owner: Address) => {
    const view = await ledger.readAccount(owner, 'USDC');
    return view.confidentialReady ? view.pendingCreditCounter : -1n;
  };

  it('shows the source as readAccount does, and the transfer reads nothing of its own', async () => {
    const reading = await ledger.readForConfidentialTransfer(senderOwner, recipientOwner, 'USDC');
    expect(reading.source).toEqual(await ledger.readAccount(senderOwner, 'USDC'));
    const creditsBefore = await pendingCredits(recipientOwner);

    expect(await transferOneUsdc(recipientOwner, reading)).toEqual([]);
    expect(decryptWithAeKey(sender, await ledger.readAccount(senderOwner, 'USDC'))).toBe(9n * USDC);
    expect(await pendingCredits(recipientOwner)).toBe(creditsBefore + 1n);
  });

  it('reads again when the reading was made for another recipient', async () => {
    const reading = await ledger.readForConfidentialTransfer(senderOwner, otherOwner, 'USDC');
    const creditsBefore = await pendingCredits(recipientOwner);

    expect(await transferOneUsdc(recipientOwner, reading)).toEqual([
      'getMultipleAccounts',
      'getLatestBlockhash',
    ]);
    expect(await pendingCredits(recipientOwner)).toBe(creditsBefore + 1n);
    expect(await pendingCredits(otherOwner)).toBe(0n);
  });

  it('reads again when the reading is not one this adapter made', async () => {
    const source = await ledger.readAccount(senderOwner, 'USDC');

    expect(await transferOneUsdc(recipientOwner, { source })).toEqual([
      'getMultipleAccounts',
      'getLatestBlockhash',
    ]);
    expect(decryptWithAeKey(sender, await ledger.readAccount(senderOwner, 'USDC'))).toBe(7n * USDC);
  });

  it('shares one blockhash between transfers within the reuse time, and reads a new one after it', async () => {
    const sharing = countingAdapter(60_000);
    const readTwice = async (adapter: SolanaRpcLedger) => {
      await adapter.init();
      requests.length = 0;
      await adapter.readForConfidentialTransfer(senderOwner, recipientOwner, 'USDC');
      await adapter.readForConfidentialTransfer(senderOwner, otherOwner, 'USDC');
      return reads();
    };

    expect(await readTwice(sharing)).toEqual([
      'getMultipleAccounts',
      'getLatestBlockhash',
      'getMultipleAccounts',
    ]);
    expect(await readTwice(ledger)).toEqual([
      'getMultipleAccounts',
      'getLatestBlockhash',
      'getMultipleAccounts',
      'getLatestBlockhash',
    ]);
  });
});
