import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateAccountKeyMaterial } from '../keys/account-keys';
import { connectInProcess } from '../local-ledger';
import { createLocalLedgerRuntime } from '../local-runtime/create-local-runtime';
import { type ProofEngineName } from '../proof-engine/proof-engine';
import { type ProofEngineChoice } from '../proof-engine/select-proof-engine';
import { createProofPool } from '../proof-pool/proof-pool';
import { SolanaRpcLedger } from '../solana-rpc/solana-rpc-ledger';

export interface RawLedgerRateOptions {
  transfers: number;
  /** Independent source accounts settling in parallel (one chain of transfers each). Default 2. */
  sources?: number;
  /** Proof workers; default os.availableParallelism(). */
  poolSize?: number;
  /** Proof engine; default CTS_PROOF_ENGINE, else auto. */
  engine?: ProofEngineChoice;
}

export interface RawLedgerRate {
  transfers: number;
  sources: number;
  poolSize: number;
  engine: ProofEngineName;
  seconds: number;
  transfersPerSecond: number;
  /** Mean wall time of one transfer inside its chain (proofs + 5 transactions). */
  meanTransferMs: number;
  /** CPU of this process (every thread: proofs, the runtime, the RPC adapter) per transfer. */
  cpuMsPerTransfer: number;
}

const AMOUNT = 1_000n;

/**
 * N confidential transfers with real proofs against an in-process local runtime, through the proof
 * pool and the RPC adapter: the ceiling the ledger puts on the service, without any service around it.
 */
export async function measureRawLedgerRate(options: RawLedgerRateOptions): Promise<RawLedgerRate> {
  const sources = options.sources ?? 2;
  const stateDir = await mkdtemp(join(tmpdir(), 'cts-ledger-bench-'));
  const runtime = await createLocalLedgerRuntime({ stateDir, environment: 'test' });
  const pool = createProofPool({ size: options.poolSize, engine: options.engine });
  const ledger = new SolanaRpcLedger({ ...connectInProcess(runtime), proofPool: pool });
  try {
    await ledger.init();
    const recipient = generateAccountKeyMaterial();
    const senders = Array.from({ length: sources }, () => generateAccountKeyMaterial());
    const [recipientOwner] = await Promise.all(
      [recipient, ...senders].map((keys) => ledger.openAccounts(keys)),
    );
    if (recipientOwner === undefined) {
      throw new Error('no recipient');
    }
    const perSource = Math.ceil(options.transfers / sources);
    await Promise.all(
      senders.map((keys) => ledger.fundTestAccount(keys, 'USDC', AMOUNT * BigInt(perSource))),
    );
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const durations: number[] = [];
    await Promise.all(
      senders.map(async (keys, index) => {
        const count = Math.min(perSource, options.transfers - index * perSource);
        for (let transfer = 0; transfer < count; transfer += 1) {
          const begun = performance.now();
          await ledger.transferConfidential({
            from: keys,
            toOwner: recipientOwner,
            asset: 'USDC',
            amount: AMOUNT,
          });
          durations.push(performance.now() - begun);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const meanTransferMs = durations.reduce((sum, value) => sum + value, 0) / Math.max(durations.length, 1);
    return {
      transfers: durations.length,
      sources,
      poolSize: pool.stats().size,
      engine: pool.engine.name,
      seconds,
      transfersPerSecond: durations.length / seconds,
      meanTransferMs,
      cpuMsPerTransfer: (cpu.user + cpu.system) / 1000 / Math.max(durations.length, 1),
    };
  } finally {
    await ledger.close();
    await pool.close();
    await runtime.close();
    await rm(stateDir, { recursive: true, force: true });
  }
}
