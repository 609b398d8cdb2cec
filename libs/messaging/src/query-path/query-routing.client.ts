import { Logger } from '@nestjs/common';
import { QueryTypes, serviceOf, type ServiceName, ServiceTopics } from '@cts/contracts';
import { internalTokenHeaders } from '@cts/platform';
import { Observable } from 'rxjs';
import { request } from 'undici';
import { type CommandClient } from '../command-bus';

/** Where each service answers queries directly: its replicas' internal base URLs. */
export type QueryRoutes = ReadonlyMap<ServiceName, readonly string[]>;

/** The path a service serves queries on (its internal port, next to /readyz and /metrics). */
export const INTERNAL_QUERY_PATH = '/internal/v1/queries';

/**
 * `SERVICE_QUERY_URLS`: `account-service=http://a:9464,http://b:9464;transfer-service=http://t:9464`.
 * A service left out keeps its queries on Kafka.
 */
export function parseQueryRoutes(value: string | undefined): QueryRoutes {
  const routes = new Map<ServiceName, string[]>();
  for (const entry of (value ?? '')
    .split(';')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [service = '', urls = ''] = entry.split('=', 2);
    if (!(service.trim() in ServiceTopics)) {
      throw new Error(
        `SERVICE_QUERY_URLS names an unknown service "${service.trim()}" (known: ${Object.keys(ServiceTopics).join(', ')})`,
      );
    }
    const list = urls
      .split(',')
      .map((u) => u.trim().replace(/\/$/, ''))
      .filter(Boolean);
    for (const url of list) {
      if (!/^https?:\/\/[^/]+$/.test(url)) {
        throw new Error(`SERVICE_QUERY_URLS: "${url}" is not a base URL like http://host:9464`);
      }
    }
    routes.set(service.trim() as ServiceName, list);
  }
  return routes;
}

const typeOf = (data: unknown) =>
  typeof data === 'object' && data !== null && 'type' in data ? String(data.type) : undefined;

/**
 * A command client that sends reads (`QueryTypes`) straight to their service over HTTP, with the
 * same envelope and reply, and everything else to the wrapped client (Kafka). Reads need no
 * ordering and change nothing, so two Kafka hops buy them nothing but latency and CPU. Replicas are
 * taken in turn; a replica that cannot be reached, or refuses `internalToken` (a rotation half rolled
 * out), is skipped, and if none answers, the read goes over Kafka after all. An unsubscribe (the
 * bus's timeout) aborts the request.
 */
export class QueryRoutingClient implements CommandClient {
  private readonly logger = new Logger(QueryRoutingClient.name);
  private turn = 0;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly inner: CommandClient,
    private readonly routes: QueryRoutes,
    /** INTERNAL_TOKEN: sent with every read, which the services require when they have it too. */
    internalToken?: string,
  ) {
    this.headers = { 'content-type': 'application/json', ...internalTokenHeaders(internalToken) };
  }

  send<TResult = unknown, TInput = unknown>(pattern: unknown, data: TInput): Observable<TResult> {
    const type = typeOf(data);
    const service = type !== undefined && QueryTypes.has(type) ? serviceOf(type) : undefined;
    const urls = service ? this.routes.get(service) : undefined;
    if (!urls || urls.length === 0) {
      return this.inner.send<TResult, TInput>(pattern, data);
    }
    return new Observable<TResult>((subscriber) => {
      const abort = new AbortController();
      const body = JSON.stringify(data);
      const start = this.turn++;
      const attempt = async (): Promise<TResult | undefined> => {
        for (let i = 0; i < urls.length; i++) {
          const url = urls[(start + i) % urls.length] ?? '';
          try {
            return await post<TResult>(url, body, this.headers, abort.signal);
          } catch (error) {
            if (abort.signal.aborted || !(isUnreachable(error) || error instanceof InternalTokenRefused)) {
              throw error;
            }
            this.logger.warn(`${url} did not take ${type}: ${String(error)}`);
          }
        }
        return undefined;
      };
      let fallback: { unsubscribe(): void } | undefined;
      let answered = false;
      attempt().then(
        (reply) => {
          answered = true;
          if (reply !== undefined) {
            subscriber.next(reply);
            subscriber.complete();
          } else {
            fallback = this.inner.send<TResult, TInput>(pattern, data).subscribe(subscriber);
          }
        },
        (error: unknown) => {
          answered = true;
          subscriber.error(error);
        },
      );
      return () => {
        // Only a request still out needs aborting (an abort builds a DOMException: not free per read).
        if (!answered) {
          abort.abort();
        }
        fallback?.unsubscribe();
      };
    });
  }
}

async function post<T>(
  baseUrl: string,
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<T> {
  const response = await request(`${baseUrl}${INTERNAL_QUERY_PATH}`, {
    method: 'POST',
    body,
    headers,
    signal,
  });
  const text = await response.body.text();
  if (response.statusCode === 401) {
    throw new InternalTokenRefused(`${baseUrl} answered 401: its INTERNAL_TOKEN and this app's differ`);
  }
  if (response.statusCode !== 200) {
    throw new Error(`${baseUrl} answered the query with ${response.statusCode}: ${text.slice(0, 200)}`);
  }
  return JSON.parse(text) as T;
}

/** A replica that answered 401: its INTERNAL_TOKEN differs from ours (a rotation half rolled out, or a mistake). */
class InternalTokenRefused extends Error {}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function isUnreachable(error: unknown): boolean {
  const code =
    (error as { code?: unknown; cause?: { code?: unknown } } | null)?.code ??
    (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' && UNREACHABLE.has(code);
}
