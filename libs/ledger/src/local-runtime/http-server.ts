import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type LedgerEnvironment } from '../ledger.port';
import { createLocalLedgerRuntime } from './create-local-runtime';
import { handleJsonRpc } from './json-rpc.handler';
import { stringifyWithBigInts } from './json-bigint';
import { type LocalLedgerRuntime } from './local-runtime';
import { RPC_ERRORS } from './json-rpc.types';

export interface LocalLedgerServerOptions {
  port: number;
  host?: string;
  stateDir: string;
  environment: LedgerEnvironment;
  zkElGamalProofProgram?: 'enabled' | 'disabled';
}

export interface LocalLedgerServer {
  url: string;
  port: number;
  runtime: LocalLedgerRuntime;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 5 * 1024 * 1024;

/**
 * Serves one environment's local ledger as a Solana JSON-RPC endpoint, so several processes share it as
 * they would share a cluster. POST only; port 0 picks a free port.
 */
export async function startLocalLedgerServer(options: LocalLedgerServerOptions): Promise<LocalLedgerServer> {
  const runtime = await createLocalLedgerRuntime(options);
  const server = createServer((request, response) => {
    void respond(runtime, request, response);
  });
  try {
    await listen(server, options.port, options.host ?? '127.0.0.1');
  } catch (error) {
    await runtime.close();
    throw error;
  }
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    port,
    runtime,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await runtime.close();
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function respond(
  runtime: LocalLedgerRuntime,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (request.method !== 'POST') {
    response.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(await readBody(request));
  } catch (error) {
    const message =
      error instanceof Error && error.message === 'body too large' ? 'Request too large' : 'Parse error';
    send(response, { jsonrpc: '2.0', id: null, error: { code: RPC_ERRORS.parse, message } });
    return;
  }
  send(response, handleJsonRpc(runtime, body));
}

function send(response: ServerResponse, payload: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json' }).end(stringifyWithBigInts(payload));
}

/** With events rather than `for await`: a small body arrives in one callback, with no promise per chunk. */
function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        request.off('data', onData);
        request.resume(); // the rest is read and dropped: the answer says why
        reject(new Error('body too large'));
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.on('error', reject);
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
