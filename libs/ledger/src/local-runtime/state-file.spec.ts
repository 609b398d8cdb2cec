import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LedgerStateFile, StateFileWriter, readStateFile } from './state-file';

describe('StateFileWriter', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'cts-ledger-statefile-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('coalesces a burst of changes into few atomic writes of the latest state', async () => {
    const path = join(directory, 'state.json');
    let slot = 0;
    let snapshots = 0;
    const writer = new StateFileWriter(path, (): LedgerStateFile => {
      snapshots += 1;
      return { version: 1, environment: 'test', slot: String(slot), accounts: {}, signatures: [] };
    });
    for (slot = 1; slot <= 50; slot += 1) {
      writer.markDirty();
    }
    slot = 50;
    await writer.flush();
    expect(snapshots).toBeLessThanOrEqual(2);
    expect(readStateFile(path)?.slot).toBe('50');
    expect(readdirSync(directory)).toEqual(['state.json']);
  });

  it('reads nothing when no state was written yet', () => {
    expect(readStateFile(join(directory, 'missing.json'))).toBeNull();
  });
});
