import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filterKey, loadState } from './listen-state';

describe('the cts listen state file', () => {
  it('names a position by its event filter, whatever the order or repeats', () => {
    expect(filterKey([])).toBe('*');
    expect(filterKey(['transfer.failed', 'transfer.confirmed', 'transfer.failed'])).toBe(
      'transfer.confirmed,transfer.failed',
    );
  });

  it('reads a file written with one position as the unfiltered position, keeping its secret', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cts-listen-state-'));
    const path = join(dir, 'state.json');
    const secret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    writeFileSync(
      path,
      JSON.stringify({ secret, cursor: { createdAt: '2026-01-01T00:00:00.000Z', idsAt: ['evt_1'] } }),
    );
    try {
      expect(loadState(path)).toEqual({
        secret,
        cursors: {
          '*': {
            createdAt: '2026-01-01T00:00:00.000Z',
            forwarded: [{ id: 'evt_1', createdAt: '2026-01-01T00:00:00.000Z' }],
          },
        },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
