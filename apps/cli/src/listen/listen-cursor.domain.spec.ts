import {
  advance,
  createdAfterFor,
  type ListenCursor,
  LOOK_BACK_MS,
  MAX_REMEMBERED,
  startAt,
  unseen,
} from './listen-cursor.domain';

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
const event = (id: string, ms: number) => ({ event_id: id, created_at: at(ms) });
const ids = (events: { event_id: string }[]) => events.map((e) => e.event_id);

describe('the cts listen cursor', () => {
  const start: ListenCursor = { createdAt: at(LOOK_BACK_MS), forwarded: [] };

  it('asks from the look-back window behind the cursor', () => {
    expect(createdAfterFor(start)).toBe(at(0));
  });

  it('forwards what it has not forwarded yet, oldest first, whatever order the listing had', () => {
    const listed = [event('evt_c', LOOK_BACK_MS + 3000), event('evt_b', LOOK_BACK_MS + 2000)];
    expect(ids(unseen(start, listed))).toEqual(['evt_b', 'evt_c']);
  });

  it('forwards an event that became visible after a newer one, once', () => {
    let cursor = advance(start, event('evt_new', LOOK_BACK_MS + 2000));
    // Stamped earlier, committed later: the next listing finds it behind the cursor.
    const late = [event('evt_new', LOOK_BACK_MS + 2000), event('evt_late', LOOK_BACK_MS + 1500)];
    expect(ids(unseen(cursor, late))).toEqual(['evt_late']);
    cursor = advance(cursor, event('evt_late', LOOK_BACK_MS + 1500));
    expect(cursor.createdAt).toBe(at(LOOK_BACK_MS + 2000));
    expect(unseen(cursor, late)).toEqual([]);
  });

  it('forgets the ids that fall out of the window, and remembers a bounded number', () => {
    let cursor = advance(start, event('evt_old', LOOK_BACK_MS + 1000));
    cursor = advance(cursor, event('evt_far', 2 * LOOK_BACK_MS + 1000));
    expect(cursor.forwarded.map((f) => f.id)).toEqual(['evt_far']);
    for (let n = 0; n <= MAX_REMEMBERED; n++) {
      cursor = advance(cursor, event(`evt_${n}`, 2 * LOOK_BACK_MS + 1000));
    }
    expect(cursor.forwarded).toHaveLength(MAX_REMEMBERED);
  });

  it('starts a first run from now: what the look-back lists up to then counts as seen', () => {
    const cursor = startAt(at(LOOK_BACK_MS), [
      event('evt_before', 1000),
      event('evt_after', LOOK_BACK_MS + 1),
    ]);
    expect(ids(unseen(cursor, [event('evt_before', 1000), event('evt_after', LOOK_BACK_MS + 1)]))).toEqual([
      'evt_after',
    ]);
  });

  it('drops duplicates a listing repeats (pages shifting while new events arrive)', () => {
    expect(unseen(start, [event('evt_b', 2000), event('evt_b', 2000)])).toHaveLength(1);
  });
});
