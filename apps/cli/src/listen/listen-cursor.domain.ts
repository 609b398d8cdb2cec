/**
 * Where `cts listen` is in the account's event stream. Pure, so resuming is tested without a clock
 * or a network.
 *
 * An event can become visible after a newer one: its `created_at` is stamped before its row
 * commits, and a transfer's events carry the transfer's `created_at` (docs/decisions.md, "Events
 * API"). So each poll looks back `LOOK_BACK_MS` behind the newest event forwarded, and the ids
 * forwarded within that window are remembered so none is forwarded twice.
 */
export const LOOK_BACK_MS = 5 * 60_000;
/** At most this many ids are remembered; past it (a very busy account) an event may be forwarded twice. */
export const MAX_REMEMBERED = 10_000;

export interface ListenCursor {
  /** `created_at` of the newest event forwarded (or of the start, before any). */
  createdAt: string;
  /** Ids forwarded whose `created_at` is within `LOOK_BACK_MS` before `createdAt`. */
  forwarded: { id: string; createdAt: string }[];
}

export interface ListedEvent {
  event_id: string;
  created_at: string;
}

/** The query bound (`created_after`, exclusive): the look-back window behind the cursor. */
export function createdAfterFor(cursor: ListenCursor): string {
  return new Date(Date.parse(cursor.createdAt) - LOOK_BACK_MS).toISOString();
}

/**
 * A cursor at `at` (the start of a first run) that takes what a listing made with its
 * `createdAfterFor` holds up to `at` as already seen: a first run forwards events from then on.
 */
export function startAt(at: string, listed: readonly ListedEvent[]): ListenCursor {
  const time = Date.parse(at);
  const seen = listed.filter((event) => Date.parse(event.created_at) <= time);
  return {
    createdAt: at,
    forwarded: seen.map((event) => ({ id: event.event_id, createdAt: event.created_at })),
  };
}

/** The events to forward, oldest first, from a listing (any order): those not forwarded yet. */
export function unseen<E extends ListedEvent>(cursor: ListenCursor, listed: readonly E[]): E[] {
  const seen = new Set(cursor.forwarded.map((event) => event.id));
  const fresh = listed.filter((event) => !seen.has(event.event_id));
  return [...new Map(fresh.map((event) => [event.event_id, event])).values()].sort(
    (a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.event_id.localeCompare(b.event_id),
  );
}

/** The cursor once `event` has been forwarded: ids older than the window are forgotten. */
export function advance(cursor: ListenCursor, event: ListedEvent): ListenCursor {
  const newest = Math.max(Date.parse(cursor.createdAt), Date.parse(event.created_at));
  const horizon = newest - LOOK_BACK_MS;
  const forwarded = [...cursor.forwarded, { id: event.event_id, createdAt: event.created_at }]
    .filter((seen) => Date.parse(seen.createdAt) > horizon)
    .slice(-MAX_REMEMBERED);
  return { createdAt: new Date(newest).toISOString(), forwarded };
}
