import { mkdtempSync, rmSync } from 'node:fs';
import { type Server, type Socket, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AddressInfo } from 'node:net';
import { createSolanaRpc } from '@solana/kit';
import { generateAccountKeyMaterial } from '../keys/account-keys';
import { ConfidentialTransfersUnavailableError } from '../ledger.errors';
import { connectInProcess } from '../local-ledger';
import { createLocalLedgerRuntime } from '../local-runtime/create-local-runtime';
import { type LocalLedgerRuntime } from '../local-runtime/local-runtime';
import { createProofPool } from '../proof-pool/proof-pool';
import { SolanaRpcLedger } from './solana-rpc-ledger';

describe('SolanaRpcLedger.init fails fast', () => {
  const pool = createProofPool({ size: 0 });
  let stateDir: string;
  const runtimes: LocalLedgerRuntime[] = [];

  beforeEach(() => {
    stateDir = mkdtempSync(join(tmpdir(), 'cts-ledger-failfast-'));
  });
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('when the ZK ElGamal proof program is disabled, as on mainnet during the pause', async () => {
    const runtime = await createLocalLedgerRuntime({
      stateDir,
      environment: 'test',
      zkElGamalProofProgram: 'disabled',
    });
    runtimes.push(runtime);
    const ledger = new SolanaRpcLedger({ ...connectInProcess(runtime), proofPool: pool });
    const failure = ledger.init();
    await expect(failure).rejects.toBeInstanceOf(ConfidentialTransfersUnavailableError);
    await expect(failure).rejects.toMatchObject({
      code: 'confidential_transfers_unavailable',
      reason: 'proof_program_disabled',
      message: expect.stringContaining('temporarily disabled') as unknown,
    });
    // Every operation keeps failing the same way instead of hanging or half-working.
    await expect(ledger.openAccounts(generateAccountKeyMaterial())).rejects.toBeInstanceOf(
      ConfidentialTransfersUnavailableError,
    );
  });

  it('when an asset mint has no confidential transfer extension', async () => {
    const runtime = await createLocalLedgerRuntime({ stateDir, environment: 'test' });
    runtimes.push(runtime);
    const connection = connectInProcess(runtime);
    const notAMint = { code: 'USDC', decimals: 6, mint: runtime.genesis.feePayer };
    const ledger = new SolanaRpcLedger({ ...connection, assets: [notAMint], proofPool: pool });
    await expect(ledger.init()).rejects.toMatchObject({ reason: 'mint_not_confidential' });
  });

  describe('when the RPC never answers', () => {
    let server: Server;
    const sockets = new Set<Socket>();

    beforeAll(async () => {
      server = createServer((socket) => {
        sockets.add(socket); // accept, read, never reply
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    });

    it('rejects within the init timeout', async () => {
      const { port } = server.address() as AddressInfo;
      const ledger = new SolanaRpcLedger({
        rpc: createSolanaRpc(`http://127.0.0.1:${port}`),
        environment: 'live',
        assets: [{ code: 'USDC', decimals: 6, mint: '11111111111111111111111111111111' as never }],
        feePayerSeed: new Uint8Array(32).fill(7),
        proofPool: pool,
        timeouts: { initMs: 300 },
      });
      const started = Date.now();
      await expect(ledger.init()).rejects.toMatchObject({
        name: 'ConfidentialTransfersUnavailableError',
        reason: 'rpc_unreachable',
      });
      expect(Date.now() - started).toBeLessThan(2_000);
    });
  });
});
