import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateAccountKeyMaterial } from '../keys/account-keys';
import { type LedgerAccountView } from '../ledger.port';
import { connectInProcess, connectOverHttp } from '../local-ledger';
import { type ProofPool, createProofPool } from '../proof-pool/proof-pool';
import { SolanaRpcLedger } from '../solana-rpc/solana-rpc-ledger';
import { decryptWithAeKey } from '../testing/balance-probe';
import { type LocalLedgerServer, startLocalLedgerServer } from './http-server';

const run = promisify(execFile);

// A separate Node process, plain @solana/kit, no knowledge of this code base: a "real" RPC client.
const CLIENT_SCRIPT = `
const { createSolanaRpc, address } = require('@solana/kit');
(async () => {
  const [url, mint, feePayer] = process.argv.slice(1);
  const rpc = createSolanaRpc(url);
  const { value: latest } = await rpc.getLatestBlockhash().send();
  const { value: account } = await rpc.getAccountInfo(address(mint), { encoding: 'base64' }).send();
  const { value: lamports } = await rpc.getBalance(address(feePayer)).send();
  const version = await rpc.getVersion().send();
  console.log(JSON.stringify({ blockhash: latest.blockhash, owner: account.owner, lamports: String(lamports), version }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

describe('local ledger JSON-RPC server', () => {
  let stateDir: string;
  let server: LocalLedgerServer;
  let pool: ProofPool;

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'cts-ledger-http-'));
    server = await startLocalLedgerServer({ port: 0, stateDir, environment: 'test' });
    pool = createProofPool({ size: 1 });
  });
  afterAll(async () => {
    await pool.close();
    await server.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('answers a @solana/kit client in another process', async () => {
    const [usdc] = server.runtime.assets();
    const { stdout } = await run(
      process.execPath,
      ['-e', CLIENT_SCRIPT, server.url, String(usdc?.mint), server.runtime.genesis.feePayer],
      {
        cwd: process.cwd(),
        timeout: 20_000,
      },
    );
    const answer = JSON.parse(stdout) as { blockhash: string; owner: string; lamports: string };
    expect(answer.owner).toBe('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
    expect(BigInt(answer.lamports)).toBeGreaterThan(0n);
    expect(server.runtime.isBlockhashValid(answer.blockhash)).toBe(true);
  });

  it('shares one ledger between an HTTP client and an in-process client', async () => {
    const overHttp = new SolanaRpcLedger({
      ...connectOverHttp(server.url, stateDir, 'test'),
      proofPool: pool,
    });
    const inProcess = new SolanaRpcLedger({ ...connectInProcess(server.runtime), proofPool: pool });
    const dora = generateAccountKeyMaterial();
    const owner = await overHttp.openAccounts(dora);
    await overHttp.fundTestAccount(dora, 'USDC', 3_000_000n);
    const seen: LedgerAccountView = await inProcess.readAccount(owner, 'USDC');
    expect(decryptWithAeKey(dora, seen)).toBe(3_000_000n);
  });

  it('speaks JSON-RPC 2.0: batches, unknown methods, bad bodies, POST only', async () => {
    const post = async (body: string) => {
      const response = await fetch(server.url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
      return response.json();
    };
    expect(
      await post(
        JSON.stringify([
          { jsonrpc: '2.0', id: 1, method: 'getHealth' },
          { jsonrpc: '2.0', id: 2, method: 'getTransaction', params: [] },
        ]),
      ),
    ).toEqual([
      { jsonrpc: '2.0', id: 1, result: 'ok' },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found: getTransaction' } },
    ]);
    expect(await post('{not json')).toMatchObject({ error: { code: -32700 } });
    expect((await fetch(server.url)).status).toBe(405);
  });

  it('answers a body over 5 MiB with a parse error that says so, and keeps serving', async () => {
    const post = async (body: string) =>
      (
        await fetch(server.url, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
      ).json();

    expect(await post(`"${'a'.repeat(5 * 1024 * 1024)}"`)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Request too large' },
    });
    expect(await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'getHealth' }))).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: 'ok',
    });
  });
});
