import { internalTokenHeaders } from '@cts/platform';
import { request } from 'undici';

/** The command header naming where the asking replica takes its replies over HTTP. */
export const REPLY_URL_HEADER = 'cts_reply_url';

/** Where a replica takes replies: on its internal port, never the public one. */
export const INTERNAL_REPLY_PATH = '/internal/v1/replies';

/** A reply as Nest's Kafka transport carries it: the command's correlation id and its answer. */
export interface DirectReply {
  id: string;
  response?: unknown;
  err?: unknown;
  isDisposed?: boolean;
}

export function isDirectReply(value: unknown): value is DirectReply {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string';
}

const REPLY_TIMEOUT_MS = 2_000;

/** `http://host:port/internal/v1/replies` and nothing else: a header cannot send a reply elsewhere. */
export function isReplyUrl(value: unknown): value is string {
  if (typeof value !== 'string') {
    return false;
  }
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && url.pathname === INTERNAL_REPLY_PATH && url.search === '';
  } catch {
    return false;
  }
}

/** The reply address of a replica whose internal port listens on `port` at `host` (a name or an IP). */
export function replyUrlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}${INTERNAL_REPLY_PATH}`;
}

/**
 * Posts a reply to the replica that asked, with `internalToken` (INTERNAL_TOKEN) when there is one.
 * True when that replica took it; false when it could not be reached, no longer waits for it, or
 * refused the token (then the reply topic carries it, as before).
 */
export async function postReply(url: string, reply: DirectReply, internalToken?: string): Promise<boolean> {
  try {
    const response = await request(url, {
      method: 'POST',
      body: JSON.stringify(reply),
      headers: { 'content-type': 'application/json', ...internalTokenHeaders(internalToken) },
      headersTimeout: REPLY_TIMEOUT_MS,
      bodyTimeout: REPLY_TIMEOUT_MS,
    });
    await response.body.dump();
    return response.statusCode === 204;
  } catch {
    return false;
  }
}
