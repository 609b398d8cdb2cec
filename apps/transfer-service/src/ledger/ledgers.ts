import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { type Environment } from '@cts/contracts';
import { observeProofPool } from '@cts/platform';
import { RUNTIME, type Runtime } from '@cts/runtime';
import {
  connectInProcess,
  connectOverHttp,
  createKeepAliveLedgerRpc,
  createLocalLedgerRuntime,
  createProofPool,
  type LedgerPort,
  type LocalLedgerRuntime,
  type ProofPool,
  SolanaRpcLedger,
} from '@cts/ledger';
import { ledgerTargetOf } from './ledger-config';

/** One ledger per environment (test and live never share one), opened on first use. */
@Injectable()
export class Ledgers implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly opened = new Map<Environment, Promise<LedgerPort>>();
  private readonly runtimes: LocalLedgerRuntime[] = [];
  private pool: ProofPool | null = null;
  private readonly logger = new Logger(Ledgers.name);

  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  /** Opened before the service takes work: the first request should not pay for a ledger start. */
  async onApplicationBootstrap(): Promise<void> {
    await Promise.all([this.of('test'), this.of('live')]);
  }

  of(environment: Environment): Promise<LedgerPort> {
    let ledger = this.opened.get(environment);
    if (!ledger) {
      ledger = this.open(environment);
      ledger.catch(() => this.opened.delete(environment));
      this.opened.set(environment, ledger);
    }
    return ledger;
  }

  /** Readiness: each ledger opened at start answers within `timeoutMs` (a block-height read; opens none). */
  async reachable(timeoutMs: number): Promise<boolean> {
    const opened = [...this.opened.values()];
    if (opened.length === 0) {
      return false;
    }
    const answers = await Promise.all(
      opened.map(async (ledger) => (await ledger.catch(() => null))?.isReachable(timeoutMs) ?? false),
    );
    return answers.every(Boolean);
  }

  async onModuleDestroy(): Promise<void> {
    const ledgers = await Promise.allSettled(this.opened.values());
    for (const ledger of ledgers) {
      if (ledger.status === 'fulfilled') {
        await ledger.value.close();
      }
    }
    await this.pool?.close();
    for (const runtime of this.runtimes) {
      await runtime.close();
    }
  }

  private createPool(): ProofPool {
    const pool = createProofPool({ engine: this.runtime.config.CTS_PROOF_ENGINE });
    // Which engine proves (native addon or WebAssembly) and, after a fallback, why.
    this.logger.log(pool.engine.description);
    // Read at scrape time: the queue depth is the signal to add replicas (or cores).
    observeProofPool(() => pool.stats());
    return pool;
  }

  private async open(environment: Environment): Promise<LedgerPort> {
    const target = ledgerTargetOf(this.runtime.config, environment);
    this.pool ??= this.createPool();
    const proofPool = this.pool;
    switch (target.kind) {
      case 'in-process': {
        const runtime = await createLocalLedgerRuntime({ stateDir: target.stateDir, environment });
        this.runtimes.push(runtime);
        return new SolanaRpcLedger({ ...connectInProcess(runtime), proofPool });
      }
      case 'local-server':
        return new SolanaRpcLedger({
          ...connectOverHttp(target.url, target.stateDir, environment),
          proofPool,
        });
      case 'cluster': {
        const ledger = new SolanaRpcLedger({
          rpc: createKeepAliveLedgerRpc(target.url),
          environment,
          assets: target.assets,
          feePayerSeed: target.feePayerSeed,
          proofPool,
        });
        await ledger.init();
        return ledger;
      }
    }
  }
}
