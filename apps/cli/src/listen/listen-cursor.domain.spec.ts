import { advance, createdAfterFor, type ListenCursor, unseen } from './listen-cursor.domain';

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
const event = (id: string, ms: number) => ({ event_id: id, created_at: at(ms) });

describe('the cts listen cursor', () => {
  const start: ListenCursor = { createdAt: at(1000), idsAt: [] };

  it('asks from 1 ms before the cursor, since created_after is exclusive', () => {
    expect(createdAfterFor(start)).toBe(at(999));
  });

  it('forwards what came after the cursor, oldest first, whatever order the listing had', () => {
    const listed = [event('evt_c', 3000), event('evt_a', 999), event('evt_b', 2000)];
    expect(unseen(start, listed).map((e) => e.event_id)).toEqual(['evt_b', 'evt_c']);
  });

  it('forwards an event at the cursor’s millisecond once, not again after a restart', () => {
    let cursor = start;
    const first = unseen(cursor, [event('evt_x', 1000)]);
    expect(first.map((e) => e.event_id)).toEqual(['evt_x']);
    cursor = advance(cursor, event('evt_x', 1000));
    expect(unseen(cursor, [event('evt_x', 1000), event('evt_y', 1000)]).map((e) => e.event_id)).toEqual([
      'evt_y',
    ]);
    cursor = advance(cursor, event('evt_y', 1000));
    expect(cursor).toEqual({ createdAt: at(1000), idsAt: ['evt_x', 'evt_y'] });
    expect(unseen(cursor, [event('evt_x', 1000), event('evt_y', 1000)])).toEqual([]);
  });

  it('moves to a later event and forgets the ids of the earlier millisecond', () => {
    const cursor = advance({ createdAt: at(1000), idsAt: ['evt_x'] }, event('evt_z', 1500));
    expect(cursor).toEqual({ createdAt: at(1500), idsAt: ['evt_z'] });
  });

  it('drops duplicates a listing repeats (pages shifting while new events arrive)', () => {
    expect(unseen(start, [event('evt_b', 2000), event('evt_b', 2000)])).toHaveLength(1);
  });
});
