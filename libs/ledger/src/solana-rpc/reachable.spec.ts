import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, type Server, type Socket, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSolanaRpc } from '@solana/kit';
import { connectInProcess } from '../local-ledger';
import { createLocalLedgerRuntime } from '../local-runtime/create-local-runtime';
import { createProofPool } from '../proof-pool/proof-pool';
import { SolanaRpcLedger } from './solana-rpc-ledger';

describe('SolanaRpcLedger.isReachable (readiness)', () => {
  const pool = createProofPool({ size: 0 });

  it('is true when the RPC answers', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'cts-ledger-reachable-'));
    const runtime = await createLocalLedgerRuntime({ stateDir, environment: 'test' });
    try {
      const ledger = new SolanaRpcLedger({ ...connectInProcess(runtime), proofPool: pool });
      expect(await ledger.isReachable(1_000)).toBe(true);
    } finally {
      await runtime.close();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  describe('against an RPC that accepts connections and never answers, or none', () => {
    let server: Server;
    const sockets = new Set<Socket>();
    const ledgerAt = (url: string) =>
      new SolanaRpcLedger({
        rpc: createSolanaRpc(url),
        environment: 'live',
        assets: [],
        feePayerSeed: new Uint8Array(32).fill(7),
        proofPool: pool,
      });

    beforeAll(async () => {
      server = createServer((socket) => {
        sockets.add(socket);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    });

    it('is false within its timeout, without initialising the ledger', async () => {
      const { port } = server.address() as AddressInfo;
      const started = Date.now();
      expect(await ledgerAt(`http://127.0.0.1:${port}`).isReachable(200)).toBe(false);
      expect(Date.now() - started).toBeLessThan(1_000);
    });

    it('is false when nothing listens', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise((resolve) => closed.close(resolve));
      expect(await ledgerAt(`http://127.0.0.1:${port}`).isReachable(500)).toBe(false);
    });
  });
});
