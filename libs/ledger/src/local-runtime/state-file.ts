import {
  closeSync,
  existsSync,
  ftruncateSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
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

/** One landed transaction: its status, and the accounts it wrote as they are after it (null: closed). */
export interface JournalEntry extends PersistedSignature {
  accounts: Record<string, PersistedAccount | null>;
}

/** The journal is folded into the snapshot once it outgrows this, or twice the snapshot. */
const MIN_COMPACTION_BYTES = 8 * 1024 * 1024;

/**
 * A local ledger's state on disk: a snapshot (`ledger-state.json`) plus a journal of the transactions
 * since (`ledger-journal.jsonl`, one JSON line each). A landed transaction is appended to the journal
 * synchronously, before the RPC call that submitted it returns, so a process killed at any moment
 * after that keeps it. Each append costs what the transaction wrote, not the size of the whole
 * state; the journal is folded into a new snapshot (tmp + rename, then emptied) at start, at close,
 * and when it has grown past twice the snapshot.
 */
export class LedgerStateStore {
  private journal: number | null = null;
  private journalBytes = 0;
  private snapshotBytes = 0;

  constructor(
    private readonly statePath: string,
    private readonly journalPath: string,
  ) {}

  /** The snapshot with the journal replayed onto it; null on a first start. */
  load(): LedgerStateFile | null {
    // `open` writes a snapshot before the first append, so there is never a journal without one.
    const snapshot = readSnapshot(this.statePath);
    return snapshot === null ? null : readJournal(this.journalPath).reduce(replay, snapshot);
  }

  /** Starts journaling; the state so far (restored, plus genesis if any) becomes the snapshot. */
  open(state: LedgerStateFile): void {
    this.journal = openSync(this.journalPath, 'a', 0o600);
    this.compact(state);
  }

  /** `state` is asked for only when the journal is due to be folded into a new snapshot. */
  append(entry: JournalEntry, state: () => LedgerStateFile): void {
    if (this.journal === null) {
      throw new Error('the ledger state journal is not open');
    }
    const line = Buffer.from(`${JSON.stringify(entry)}\n`);
    for (let written = 0; written < line.length;) {
      written += writeSync(this.journal, line, written);
    }
    this.journalBytes += line.length;
    if (this.journalBytes > Math.max(MIN_COMPACTION_BYTES, 2 * this.snapshotBytes)) {
      this.compact(state());
    }
  }

  close(state: LedgerStateFile): void {
    if (this.journal === null) {
      return;
    }
    this.compact(state);
    closeSync(this.journal);
    this.journal = null;
  }

  private compact(state: LedgerStateFile): void {
    const text = JSON.stringify(state);
    const temporary = `${this.statePath}.${process.pid}.tmp`;
    writeFileSync(temporary, text, { mode: 0o600 });
    renameSync(temporary, this.statePath);
    // A crash between the rename and this truncation replays entries the snapshot already holds:
    // harmless, since an entry sets accounts to what they were after it, in order.
    if (this.journal !== null) {
      ftruncateSync(this.journal, 0);
      this.journalBytes = 0;
    }
    this.snapshotBytes = text.length;
  }
}

function readSnapshot(path: string): LedgerStateFile | null {
  if (!existsSync(path)) {
    return null;
  }
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as LedgerStateFile;
  if (parsed.version !== 1) {
    throw new Error(`unsupported ledger state version in ${path}`);
  }
  return parsed;
}

function readJournal(path: string): JournalEntry[] {
  if (!existsSync(path)) {
    return [];
  }
  const lines = readFileSync(path, 'utf8').split('\n');
  // Every entry ends with a newline. Text after the last one is an append a crash cut short: its
  // transaction was never reported as landed, so it is dropped.
  lines.pop();
  return lines.map((line, index) => {
    try {
      return JSON.parse(line) as JournalEntry;
    } catch {
      throw new Error(`ledger state journal ${path} is corrupt at line ${index + 1}`);
    }
  });
}

function replay(state: LedgerStateFile, entry: JournalEntry): LedgerStateFile {
  for (const [address, account] of Object.entries(entry.accounts)) {
    if (account === null) {
      delete state.accounts[address];
    } else {
      state.accounts[address] = account;
    }
  }
  state.signatures.push({ signature: entry.signature, slot: entry.slot, err: entry.err });
  if (BigInt(entry.slot) > BigInt(state.slot)) {
    state.slot = entry.slot;
  }
  return state;
}
