import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { LedgerError, deserializeError, serializeError } from '../ledger.errors';
import { type BuildJob, type SignedTransactionPlan } from '../transactions/build-job';
import { buildSignedTransactions } from '../transactions/build-signed-transactions';
import { type ProofEngine, type ProofEngineName } from '../proof-engine/proof-engine';
import { type ProofEngineChoice, selectProofEngine } from '../proof-engine/select-proof-engine';
import { type JobMessage, type ReadyMessage, type ResultMessage } from './worker-protocol';
import { type WorkerLaunch, resolveProofWorker } from './worker-script';

export interface ProofPoolOptions {
  /** Worker threads; default os.availableParallelism(). 0 builds on the calling thread (debugging only). */
  size?: number;
  /** Which proof engine; default CTS_PROOF_ENGINE, else auto (native when built, else WebAssembly). */
  engine?: ProofEngineChoice;
}

export interface ProofPoolEngine {
  name: ProofEngineName;
  /** One line for the log: which engine proves, and why that one. */
  description: string;
}

export interface ProofPoolStats {
  mode: 'worker-threads' | 'in-thread';
  size: number;
  busy: number;
  /** Jobs waiting for a free worker: the number to export as a queue-depth metric. */
  queued: number;
  completed: number;
  failed: number;
}

/**
 * Prepares a job when a worker is free, not when it is queued: the blockhash and the account states it
 * carries are then fresh however long the queue was.
 */
export type JobPreparation = () => Promise<BuildJob>;

/** Builds and signs the transactions of one ledger operation off the event loop. */
export interface ProofPool {
  run(prepare: JobPreparation): Promise<SignedTransactionPlan>;
  queueDepth(): number;
  stats(): ProofPoolStats;
  /** The engine every job of this pool is proved with. */
  readonly engine: ProofPoolEngine;
  close(): Promise<void>;
}

interface PendingJob {
  id: number;
  prepare: JobPreparation;
  resolve: (result: SignedTransactionPlan) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  current: PendingJob | null;
  /** Settles once the worker has loaded its modules (or ended). */
  loaded: Promise<void>;
}

/** How long close() waits for a worker still loading before terminating it anyway. */
const LOAD_WAIT_MS = 10_000;

export function createProofPool(options: ProofPoolOptions = {}): ProofPool {
  const size = options.size ?? availableParallelism();
  const selected = selectProofEngine(options.engine);
  const engine = { name: selected.engine.name, description: selected.description };
  const launch = size > 0 ? resolveProofWorker(engine.name) : null;
  return launch === null
    ? new InThreadProofPool(selected.engine, engine)
    : new WorkerProofPool(size, launch, engine);
}

class WorkerProofPool implements ProofPool {
  private readonly workers: PoolWorker[] = [];
  private readonly queue: PendingJob[] = [];
  private nextId = 1;
  private completed = 0;
  private failed = 0;
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly launch: WorkerLaunch,
    readonly engine: ProofPoolEngine,
  ) {
    for (let index = 0; index < size; index += 1) {
      this.workers.push(this.spawn());
    }
  }

  run(prepare: JobPreparation): Promise<SignedTransactionPlan> {
    if (this.closed) {
      return Promise.reject(new LedgerError('proof_pool_closed', 'the proof pool is closed'));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, prepare, resolve, reject });
      this.dispatch();
    });
  }

  queueDepth(): number {
    return this.queue.length;
  }

  stats(): ProofPoolStats {
    const busy = this.workers.filter((entry) => entry.current !== null).length;
    const { size, completed, failed } = this;
    return { mode: 'worker-threads', size, busy, queued: this.queue.length, completed, failed };
  }

  async close(): Promise<void> {
    this.closed = true;
    const abandoned = new LedgerError('proof_pool_closed', 'the proof pool closed before the job ran');
    for (const pending of this.queue.splice(0)) {
      pending.reject(abandoned);
    }
    await Promise.all(
      this.workers.map(async (entry) => {
        entry.current?.reject(abandoned);
        entry.current = null;
        // Terminated while it still loads its ES modules (require of an ESM-only package), Node 20
        // can abort the whole process (V8 "IsGraphAsync must be used on an instantiated module").
        await loadedOrLater(entry.loaded);
        await entry.worker.terminate();
      }),
    );
  }

  private spawn(): PoolWorker {
    const worker = new Worker(this.launch.filename, { workerData: this.launch.workerData });
    let loaded = (): void => undefined;
    const entry: PoolWorker = { worker, current: null, loaded: new Promise((resolve) => (loaded = resolve)) };
    // Idle workers must not keep the process alive; a busy one must (its caller awaits it).
    worker.unref();
    worker.once('exit', () => loaded());
    worker.on('message', (message: ResultMessage | ReadyMessage) =>
      'ready' in message ? loaded() : this.settle(entry, message),
    );
    worker.on('error', (error) => this.replace(entry, error));
    worker.on('exit', (code) => {
      if (!this.closed) {
        this.replace(entry, new Error(`proof worker exited with code ${code}`));
      }
    });
    return entry;
  }

  private dispatch(): void {
    for (const entry of this.workers) {
      const next = entry.current === null ? this.queue.shift() : undefined;
      if (next !== undefined) {
        entry.current = next;
        entry.worker.ref();
        next.prepare().then(
          (job) => {
            if (entry.current === next) {
              entry.worker.postMessage({ id: next.id, job } satisfies JobMessage);
            }
          },
          (error: unknown) => this.abandon(entry, next, error),
        );
      }
    }
  }

  private settle(entry: PoolWorker, message: ResultMessage): void {
    const pending = entry.current;
    entry.current = null;
    entry.worker.unref();
    if (pending !== null && pending.id === message.id) {
      if (message.ok) {
        this.completed += 1;
        pending.resolve(message.result);
      } else {
        this.failed += 1;
        pending.reject(deserializeError(message.error));
      }
    }
    this.dispatch();
  }

  /** Preparation failed (RPC, validation): the caller gets that error as is, the worker is free again. */
  private abandon(entry: PoolWorker, pending: PendingJob, error: unknown): void {
    if (entry.current !== pending) {
      return;
    }
    entry.current = null;
    entry.worker.unref();
    this.failed += 1;
    pending.reject(error instanceof Error ? error : new Error(String(error)));
    this.dispatch();
  }

  private replace(entry: PoolWorker, cause: Error): void {
    const index = this.workers.indexOf(entry);
    if (index === -1 || this.closed) {
      return;
    }
    entry.current?.reject(
      new LedgerError('proof_worker_failed', `proof worker crashed: ${cause.message}`, { cause }),
    );
    entry.current = null;
    this.failed += 1;
    entry.worker.removeAllListeners();
    void entry.worker.terminate();
    this.workers[index] = this.spawn();
    this.dispatch();
  }
}

/** Same contract on the calling thread: proofs then block the event loop, so only for debugging/tools. */
class InThreadProofPool implements ProofPool {
  private busy = 0;
  private completed = 0;
  private failed = 0;
  private closed = false;

  constructor(
    private readonly prover: ProofEngine,
    readonly engine: ProofPoolEngine,
  ) {}

  async run(prepare: JobPreparation): Promise<SignedTransactionPlan> {
    if (this.closed) {
      throw new LedgerError('proof_pool_closed', 'the proof pool is closed');
    }
    this.busy += 1;
    try {
      const job = await prepare().catch((error: unknown) => {
        throw new PreparationError(error);
      });
      const result = await buildSignedTransactions(job, this.prover);
      this.completed += 1;
      return result;
    } catch (error) {
      this.failed += 1;
      if (error instanceof PreparationError) {
        throw error.cause;
      }
      // Same error contract as the worker path: typed LedgerErrors, library errors wrapped.
      throw deserializeError(serializeError(error));
    } finally {
      this.busy -= 1;
    }
  }

  queueDepth(): number {
    return 0;
  }

  stats(): ProofPoolStats {
    const { busy, completed, failed } = this;
    return { mode: 'in-thread', size: 0, busy, queued: 0, completed, failed };
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

function loadedOrLater(loaded: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const later = new Promise<void>((resolve) => (timer = setTimeout(resolve, LOAD_WAIT_MS)));
  return Promise.race([loaded, later]).finally(() => clearTimeout(timer));
}

class PreparationError extends Error {
  constructor(override readonly cause: unknown) {
    super('job preparation failed');
  }
}
