import { type LocalLedgerRuntime } from './local-runtime';
import { LOCAL_LEDGER_METHODS } from './json-rpc.methods';
import { paramsArray } from './json-rpc.params';
import { type JsonRpcId, type JsonRpcResponse, JsonRpcError, RPC_ERRORS } from './json-rpc.types';

function idOf(request: unknown): JsonRpcId {
  const id = typeof request === 'object' && request !== null ? (request as { id?: unknown }).id : null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function handleOne(runtime: LocalLedgerRuntime, request: unknown): JsonRpcResponse {
  const id = idOf(request);
  try {
    if (
      typeof request !== 'object' ||
      request === null ||
      (request as { jsonrpc?: unknown }).jsonrpc !== '2.0'
    ) {
      throw new JsonRpcError(RPC_ERRORS.invalidRequest, 'Invalid request');
    }
    const { method, params } = request as { method?: unknown; params?: unknown };
    const implementation = typeof method === 'string' ? LOCAL_LEDGER_METHODS[method] : undefined;
    if (implementation === undefined) {
      throw new JsonRpcError(RPC_ERRORS.methodNotFound, `Method not found: ${String(method)}`);
    }
    return { jsonrpc: '2.0', id, result: implementation(runtime, paramsArray(params)) };
  } catch (error) {
    if (error instanceof JsonRpcError) {
      const body =
        error.data === undefined
          ? { code: error.code, message: error.message }
          : { code: error.code, message: error.message, data: error.data };
      return { jsonrpc: '2.0', id, error: body };
    }
    const message = error instanceof Error ? error.message : String(error);
    return {
      jsonrpc: '2.0',
      id,
      error: { code: RPC_ERRORS.internal, message: `Internal error: ${message}` },
    };
  }
}

/**
 * JSON-RPC request (or batch) in, response out: no transport. The in-process kit transport and the HTTP
 * server are both thin wrappers around this. Responses may hold bigints (u64 values).
 */
export function handleJsonRpc(
  runtime: LocalLedgerRuntime,
  request: unknown,
): JsonRpcResponse | JsonRpcResponse[] {
  if (Array.isArray(request)) {
    return request.map((entry) => handleOne(runtime, entry));
  }
  return handleOne(runtime, request);
}
