/**
 * Where `cts listen` is in the account's event stream: the newest event it forwarded (its time and
 * every id forwarded at that same millisecond, since events can share one). Pure, so resuming is
 * tested without a clock or a network.
 */
export interface ListenCursor {
  /** `created_at` of the newest event forwarded (or of the start, before any). */
  createdAt: string;
  /** Ids already forwarded whose `created_at` equals `createdAt`. */
  idsAt: string[];
}

export interface ListedEvent {
  event_id: string;
  created_at: string;
}

/** The query bound that may still hold unseen events: 1 ms before the cursor, as `created_after` is exclusive. */
export function createdAfterFor(cursor: ListenCursor): string {
  return new Date(Date.parse(cursor.createdAt) - 1).toISOString();
}

/**
 * The events to forward, oldest first, from a listing (any order) made with `createdAfterFor`:
 * those after the cursor, and those at its millisecond not forwarded yet.
 */
export function unseen<E extends ListedEvent>(cursor: ListenCursor, listed: readonly E[]): E[] {
  const at = Date.parse(cursor.createdAt);
  const seen = new Set(cursor.idsAt);
  const fresh = listed.filter((event) => {
    const time = Date.parse(event.created_at);
    return time > at || (time === at && !seen.has(event.event_id));
  });
  return [...new Map(fresh.map((event) => [event.event_id, event])).values()].sort(
    (a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.event_id.localeCompare(b.event_id),
  );
}

/** The cursor once `event` (the next in `unseen`'s order) has been forwarded. */
export function advance(cursor: ListenCursor, event: ListedEvent): ListenCursor {
  const time = Date.parse(event.created_at);
  const at = Date.parse(cursor.createdAt);
  if (time > at) {
    return { createdAt: new Date(time).toISOString(), idsAt: [event.event_id] };
  }
  return time === at && !cursor.idsAt.includes(event.event_id)
    ? { ...cursor, idsAt: [...cursor.idsAt, event.event_id] }
    : cursor;
}
