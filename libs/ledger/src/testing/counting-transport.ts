import { type RpcTransport } from '@solana/kit';
import { type LocalLedgerRuntime } from '../local-runtime/local-runtime';
import { createLocalLedgerTransport } from '../local-runtime/rpc-transport';

/** The in-process runtime's transport, recording each request: its method, or `batch of N`. */
export function countingTransport(runtime: LocalLedgerRuntime, requests: string[]): RpcTransport {
  const transport = createLocalLedgerTransport(runtime);
  return (request) => {
    const { payload } = request as { payload: { method: string } | unknown[] };
    requests.push(Array.isArray(payload) ? `batch of ${payload.length}` : payload.method);
    return transport(request);
  };
}
