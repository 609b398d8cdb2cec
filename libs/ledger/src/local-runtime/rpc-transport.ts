import { type RpcTransport } from '@solana/kit';
import { handleJsonRpc } from './json-rpc.handler';
import { type LocalLedgerRuntime } from './local-runtime';

/** A kit transport that answers from the in-process runtime: same code path as HTTP, no socket. */
export function createLocalLedgerTransport(runtime: LocalLedgerRuntime): RpcTransport {
  return <TResponse>({ payload, signal }: { payload: unknown; signal?: AbortSignal }) => {
    signal?.throwIfAborted();
    return Promise.resolve(handleJsonRpc(runtime, payload) as TResponse);
  };
}
