import { type Agent, type IncomingMessage, request as httpRequest, Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import {
  type RpcTransport,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  SolanaError,
  createSolanaRpcFromTransport,
} from '@solana/kit';
import { parseJsonWithBigInts, stringifyJsonWithBigInts } from '@solana/rpc-spec-types';
import { type LedgerRpc } from './ledger-rpc';

/** Enough for a transfer's parallel sends; the node sees at most this many connections from a replica. */
const MAX_SOCKETS = 16;

/**
 * `createSolanaRpc(url)` over node:http with kept-alive connections. kit's default transport goes through
 * `fetch`, which costs ~0.7 ms of CPU per call on this machine against ~0.2 ms here, and a transfer makes
 * about ten calls. Same JSON as kit's (u64 values as bigints both ways), same errors for non-2xx answers.
 */
export function createKeepAliveLedgerRpc(url: string): LedgerRpc {
  return createSolanaRpcFromTransport(createKeepAliveTransport(url));
}

/** The transport under `createKeepAliveLedgerRpc`: for requests kit's RPC cannot make (a batch). */
export function createKeepAliveTransport(url: string): RpcTransport {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const agent: Agent = secure
    ? new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS })
    : new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  const post = secure ? httpsRequest : httpRequest;
  const send = (body: string, signal: AbortSignal | undefined): Promise<string> =>
    new Promise((resolve, reject) => {
      const outgoing = post(
        target,
        {
          agent,
          method: 'POST',
          signal,
          headers: {
            accept: 'application/json',
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(body),
          },
        },
        (response) => void readBody(response).then(resolve, reject),
      );
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed while this request was leaving: retry once on a new one.
        // Every method the ledger calls is idempotent (a resent transaction is the same signature).
        if (outgoing.reusedSocket && error.code === 'ECONNRESET' && !signal?.aborted) {
          send(body, signal).then(resolve, reject);
          return;
        }
        reject(error);
      });
      outgoing.end(body);
    });
  return async <TResponse>({ payload, signal }: { payload: unknown; signal?: AbortSignal }) =>
    parseJsonWithBigInts(await send(stringifyJsonWithBigInts(payload), signal)) as TResponse;
}

function readBody(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('error', reject);
    response.on('end', () => {
      const status = response.statusCode ?? 0;
      if (status < 200 || status > 299) {
        reject(
          new SolanaError(SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, {
            headers: new Headers(headerPairs(response)),
            message: response.statusMessage ?? '',
            statusCode: status,
          }),
        );
        return;
      }
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

function headerPairs(response: IncomingMessage): [string, string][] {
  return Object.entries(response.headers).flatMap(([name, value]) =>
    value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value] as [string, string]],
  );
}
