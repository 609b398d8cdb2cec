import { type CtsEvent, CtsClient } from '@cts/sdk';
import { errorMessage } from '../errors';
import { deliveryBody } from './delivery-body';
import { advance, createdAfterFor, type ListenCursor, startAt, unseen } from './listen-cursor.domain';
import { filterKey, loadState, saveState } from './listen-state';
import { deliveryHeaders, newListenSecret } from './sign-delivery';

export interface ListenSettings {
  baseUrl: string;
  apiKey: string;
  forwardTo: string;
  /** Only these event types; empty: all. */
  types: string[];
  statePath: string;
  intervalMs: number;
  fetch: typeof fetch;
  print: (line: string) => void;
  /** Stops the loop (Ctrl-C); the state is saved after every forwarded event. */
  signal: AbortSignal;
}

const FORWARD_TIMEOUT_MS = 10_000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * `cts listen`: polls the events API and forwards each new event of the account, oldest first, to a
 * local URL as a signed delivery — the same body a webhook delivery carries, signed with a secret
 * kept in the state file, so the receiver verifies it with the SDK. Resumes where it stopped (per
 * event filter), also across runs, looking back a window for events that became visible late.
 * Runs until `signal` aborts.
 */
export async function listen(settings: ListenSettings): Promise<void> {
  const client = new CtsClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, fetch: settings.fetch });
  const listSince = async (cursor: ListenCursor): Promise<CtsEvent[]> => {
    const listed: CtsEvent[] = [];
    const query = { createdAfter: createdAfterFor(cursor), types: settings.types, limit: 100 };
    for await (const event of client.allEvents(query)) {
      listed.push(event);
    }
    return listed;
  };
  const stored = loadState(settings.statePath);
  const secret = stored?.secret ?? newListenSecret();
  const cursors = { ...stored?.cursors };
  const key = filterKey(settings.types);
  const resumed = cursors[key];
  const now = new Date().toISOString();
  // Also checks the key (and the URL) before saying "ready".
  const before = await listSince(resumed ?? startAt(now, []));
  let cursor = resumed ?? startAt(now, before);
  const save = () => saveState(settings.statePath, { secret, cursors: { ...cursors, [key]: cursor } });
  save();
  const environment = settings.apiKey.startsWith('svc_live_') ? 'live' : 'test';
  settings.print(
    `Ready: forwarding ${settings.types.length > 0 ? settings.types.join(', ') : 'all'} events (${environment}) to ${settings.forwardTo}`,
  );
  settings.print(
    `Your webhook signing secret is ${secret} (verify with verifyWebhookSignature from @cts/sdk)`,
  );
  settings.print(resumed ? `Resuming after ${cursor.createdAt}` : 'Starting with events from now on');
  while (!settings.signal.aborted) {
    let listed: CtsEvent[] = [];
    try {
      listed = await listSince(cursor);
    } catch (error) {
      settings.print(`could not list events: ${errorMessage(error)}; retrying`);
    }
    for (const event of unseen(cursor, listed)) {
      const status = await forward(settings, secret, event);
      if (status === null) {
        break;
      }
      cursor = advance(cursor, event);
      save();
      settings.print(`${event.created_at}  ${event.event}  ${event.event_id}  -> ${status}`);
    }
    await sleep(settings.intervalMs, settings.signal);
  }
}

/** The receiver's HTTP status; retried while it cannot be reached. Null only when stopped. */
async function forward(settings: ListenSettings, secret: string, event: CtsEvent): Promise<number | null> {
  const body = deliveryBody(event);
  let wait = 1000;
  while (!settings.signal.aborted) {
    try {
      const response = await settings.fetch(settings.forwardTo, {
        method: 'POST',
        headers: deliveryHeaders(secret, event.event_id, body, Math.floor(Date.now() / 1000)),
        body,
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      await response.arrayBuffer();
      return response.status;
    } catch (error) {
      settings.print(
        `could not reach ${settings.forwardTo} (${errorMessage(error)}); retrying ${event.event_id} in ${wait / 1000}s`,
      );
      await sleep(wait, settings.signal);
      wait = Math.min(wait * 2, 30_000);
    }
  }
  return null;
}
