import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RpcTransport, createSolanaRpcFromTransport } from '@solana/kit';
import { generateAccountKeyMaterial } from '../keys/account-keys';
import { InsufficientFundsOnchainError } from '../ledger.errors';
import { connectInProcess } from '../local-ledger';
import { createLocalLedgerRuntime } from '../local-runtime/create-local-runtime';
import { type LocalLedgerRuntime } from '../local-runtime/local-runtime';
import { countingTransport } from '../testing/counting-transport';
import { type ProofPool, createProofPool } from '../proof-pool/proof-pool';
import { decryptWithAeKey } from '../testing/balance-probe';
import { type OrderedSender, orderedSenderOver } from './ordered-sender';
import { SolanaRpcLedger } from './solana-rpc-ledger';

jest.setTimeout(60_000);

const USDC = 1_000_000n;

describe('sending to a node that lands a transaction before it answers', () => {
  let stateDir: string;
  let runtime: LocalLedgerRuntime;
  let pool: ProofPool;
  const calls: string[] = [];

  /** The local runtime's RPC, counting the methods called. */
  const countingRpc = () => createSolanaRpcFromTransport(countingTransport(runtime, calls));

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'cts-lands-on-send-'));
    runtime = await createLocalLedgerRuntime({ stateDir, environment: 'test' });
    pool = createProofPool({ size: 1 });
  });
  afterAll(async () => {
    await pool.close();
    await runtime.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  const openAndFund = async (landsOnSend: boolean) => {
    const ledger = new SolanaRpcLedger({
      ...connectInProcess(runtime),
      rpc: countingRpc(),
      landsOnSend,
      proofPool: pool,
    });
    await ledger.init();
    const keys = generateAccountKeyMaterial();
    const owner = await ledger.openAccounts(keys);
    calls.length = 0;
    await ledger.fundTestAccount(keys, 'USDC', 3n * USDC);
    const sent = calls.filter((method) => method === 'sendTransaction').length;
    const polled = calls.filter((method) => method === 'getSignatureStatuses').length;
    const view = await ledger.readAccount(owner, 'USDC');
    await ledger.close();
    return { sent, polled, view, keys };
  };

  it('takes the answered signature as landed: no status poll, the same balance', async () => {
    const polling = await openAndFund(false);
    const trusting = await openAndFund(true);

    expect(polling.sent).toBeGreaterThan(0);
    expect(polling.polled).toBeGreaterThan(0);
    expect(trusting.sent).toBe(polling.sent);
    expect(trusting.polled).toBe(0);
    for (const { view, keys } of [polling, trusting]) {
      if (!view.confidentialReady) {
        throw new Error('not confidential');
      }
      expect(decryptWithAeKey(keys, view)).toBe(3n * USDC);
    }
  });

  it.each([
    ['in one batch', true],
    ['stage by stage', false],
  ])(
    'still fails a transfer whose transaction the node refuses at its preflight (%s)',
    async (_how, batched) => {
      const ledger = new SolanaRpcLedger({
        ...connectInProcess(runtime),
        rpc: countingRpc(),
        sendInOrder: batched ? connectInProcess(runtime).sendInOrder : undefined,
        landsOnSend: true,
        proofPool: pool,
      });
      const [poor, rich] = [generateAccountKeyMaterial(), generateAccountKeyMaterial()];
      const [, richOwner] = await Promise.all([ledger.openAccounts(poor), ledger.openAccounts(rich)]);
      await expect(
        ledger.transferConfidential({ from: poor, toOwner: richOwner, asset: 'USDC', amount: USDC }),
      ).rejects.toBeInstanceOf(InsufficientFundsOnchainError);
      await ledger.close();
    },
  );

  describe('a node that also runs a JSON-RPC batch in order', () => {
    /** A transfer of 1 USDC from a funded sender; the requests it made and both balances after it. */
    const transferWith = async (sendInOrder: (transport: RpcTransport) => OrderedSender | undefined) => {
      const requests: string[] = [];
      const counting = countingTransport(runtime, requests);
      const ledger = new SolanaRpcLedger({
        ...connectInProcess(runtime),
        rpc: createSolanaRpcFromTransport(counting),
        sendInOrder: sendInOrder(counting),
        landsOnSend: true,
        proofPool: pool,
      });
      const [sender, recipient] = [generateAccountKeyMaterial(), generateAccountKeyMaterial()];
      const [senderOwner, recipientOwner] = await Promise.all([
        ledger.openAccounts(sender),
        ledger.openAccounts(recipient),
      ]);
      await ledger.fundTestAccount(sender, 'USDC', 3n * USDC);
      requests.length = 0;
      await ledger.transferConfidential({
        from: sender,
        toOwner: recipientOwner,
        asset: 'USDC',
        amount: USDC,
      });
      const sent = [...requests];
      const senderView = await ledger.readAccount(senderOwner, 'USDC');
      const recipientView = await ledger.readAccount(recipientOwner, 'USDC');
      await ledger.close();
      return { sent, senderBalance: decryptWithAeKey(sender, senderView), recipientView };
    };
    const sends = (requests: string[]) => requests.filter((request) => request === 'sendTransaction');

    it("sends a transfer's stages in one request, with the same effect as stage by stage", async () => {
      const staged = await transferWith(() => undefined);
      const batched = await transferWith(orderedSenderOver);

      expect(sends(staged.sent).length).toBeGreaterThan(1);
      expect(batched.sent.filter((request) => request.startsWith('batch'))).toEqual([
        `batch of ${sends(staged.sent).length}`,
      ]);
      expect(sends(batched.sent)).toEqual([]);
      for (const outcome of [staged, batched]) {
        expect(outcome.senderBalance).toBe(2n * USDC);
        expect(outcome.recipientView.confidentialReady && outcome.recipientView.pendingCreditCounter).toBe(
          1n,
        );
      }
    });

    it('goes stage by stage when the batch gets no answer', async () => {
      const lost: OrderedSender = () => Promise.reject(new Error('connection reset'));
      const outcome = await transferWith(() => lost);

      expect(sends(outcome.sent).length).toBeGreaterThan(1);
      expect(outcome.senderBalance).toBe(2n * USDC);
    });
  });
});
