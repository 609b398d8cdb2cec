import { existsSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { type LedgerEnvironment } from '../ledger.port';
import { type TransactionErrorJson } from './transaction-error-json';

export interface PersistedAccount {
  lamports: string;
  owner: string;
  executable: boolean;
  /** base64 */
  data: string;
}

export interface PersistedSignature {
  signature: string;
  slot: string;
  err: TransactionErrorJson | null;
}

export interface LedgerStateFile {
  version: 1;
  environment: LedgerEnvironment;
  slot: string;
  accounts: Record<string, PersistedAccount>;
  signatures: PersistedSignature[];
}

export function readStateFile(path: string): LedgerStateFile | null {
  if (!existsSync(path)) {
    return null;
  }
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as LedgerStateFile;
  if (parsed.version !== 1) {
    throw new Error(`unsupported ledger state version in ${path}`);
  }
  return parsed;
}

/**
 * Writes the state after every successful transaction, coalesced: one write in flight at a time, and
 * the changes that arrive meanwhile go into the next one. tmp + rename so a crash mid-write leaves the
 * previous complete file, never a torn one.
 */
export class StateFileWriter {
  private inFlight: Promise<void> | null = null;
  private dirty = false;

  constructor(
    private readonly path: string,
    private readonly snapshot: () => LedgerStateFile,
  ) {}

  markDirty(): void {
    this.dirty = true;
    if (this.inFlight === null) {
      this.inFlight = this.drain();
    }
  }

  async flush(): Promise<void> {
    while (this.inFlight !== null) {
      await this.inFlight;
    }
  }

  private async drain(): Promise<void> {
    try {
      // Let the transactions of the current tick land first: they share this write.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.dirty) {
        this.dirty = false;
        const temporary = `${this.path}.${process.pid}.tmp`;
        await writeFile(temporary, JSON.stringify(this.snapshot()), { mode: 0o600 });
        await rename(temporary, this.path);
      }
    } finally {
      this.inFlight = null;
    }
  }
}
