import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type JournalEntry,
  type LedgerStateFile,
  LedgerStateStore,
  type PersistedAccount,
} from './state-file';

const account = (data: string): PersistedAccount => ({
  lamports: '1',
  owner: 'Owner1',
  executable: false,
  data,
});
const empty = (): LedgerStateFile => ({
  version: 1,
  environment: 'test',
  slot: '1',
  accounts: {},
  signatures: [],
});
const entry = (slot: number, accounts: JournalEntry['accounts']): JournalEntry => ({
  signature: `sig${slot}`,
  slot: String(slot),
  err: null,
  accounts,
});

describe('LedgerStateStore', () => {
  let directory: string;
  let statePath: string;
  let journalPath: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'cts-ledger-statefile-'));
    statePath = join(directory, 'ledger-state.json');
    journalPath = join(directory, 'ledger-journal.jsonl');
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('has every appended transaction on disk at once, replayed onto the snapshot in order', () => {
    const store = new LedgerStateStore(statePath, journalPath);
    store.open({ ...empty(), accounts: { A: account('a0'), B: account('b0') } });
    const neverAsked = () => {
      throw new Error('no compaction expected');
    };
    store.append(entry(5, { A: account('a1') }), neverAsked);
    store.append(entry(6, { A: account('a2'), B: null, C: account('c1') }), neverAsked);

    // Read back by another store, as a process started after this one was killed would.
    const loaded = new LedgerStateStore(statePath, journalPath).load();
    expect(loaded?.accounts).toEqual({ A: account('a2'), C: account('c1') });
    expect(loaded?.signatures.map((s) => s.signature)).toEqual(['sig5', 'sig6']);
    expect(loaded?.slot).toBe('6');
  });

  it('drops an append a crash cut short, and only that one', () => {
    const store = new LedgerStateStore(statePath, journalPath);
    store.open(empty());
    store.append(entry(2, { A: account('a1') }), empty);
    appendFileSync(journalPath, '{"signature":"sig3","slot":"3","er');
    expect(new LedgerStateStore(statePath, journalPath).load()?.signatures.map((s) => s.signature)).toEqual([
      'sig2',
    ]);

    appendFileSync(journalPath, '\n{"signature":"sig4"}\n');
    expect(() => new LedgerStateStore(statePath, journalPath).load()).toThrow(/corrupt at line 2/);
  });

  it('folds the journal into a new snapshot on open, when it outgrows the snapshot, and on close', () => {
    const first = new LedgerStateStore(statePath, journalPath);
    first.open(empty());
    first.append(entry(2, { A: account('a1') }), empty);
    expect(statSync(journalPath).size).toBeGreaterThan(0);

    // A restart folds what the journal holds into the snapshot before anything new is appended.
    const second = new LedgerStateStore(statePath, journalPath);
    const restored = second.load();
    second.open(restored ?? empty());
    expect(statSync(journalPath).size).toBe(0);
    expect(JSON.parse(readFileSync(statePath, 'utf8'))).toMatchObject({
      slot: '2',
      accounts: { A: account('a1') },
    });

    // Past 8 MiB of journal (the snapshot here is tiny), the next append asks for the state once.
    const big = account('x'.repeat(1024 * 1024));
    let asked = 0;
    const current = () => {
      asked += 1;
      return { ...empty(), slot: '20', accounts: { A: big } };
    };
    for (let slot = 3; slot <= 11; slot += 1) {
      second.append(entry(slot, { A: big }), current);
    }
    expect(asked).toBe(1);
    expect(statSync(journalPath).size).toBeLessThan(2 * 1024 * 1024);
    expect(new LedgerStateStore(statePath, journalPath).load()?.slot).toBe('20');

    second.close({ ...empty(), slot: '30' });
    expect(statSync(journalPath).size).toBe(0);
    expect(JSON.parse(readFileSync(statePath, 'utf8'))).toMatchObject({ slot: '30' });
    expect(readdirSync(directory).sort()).toEqual(['ledger-journal.jsonl', 'ledger-state.json']);
    expect(statSync(journalPath).mode & 0o777).toBe(0o600);
  });

  it('reads nothing when no state was written yet', () => {
    expect(new LedgerStateStore(statePath, journalPath).load()).toBeNull();
  });
});
