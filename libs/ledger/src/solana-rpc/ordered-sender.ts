import { type Base64EncodedWireTransaction, type RpcTransport, type SolanaError } from '@solana/kit';
import { getThrowSolanaErrorResponseTransformer } from '@solana/rpc-transformers';
import { COMMITMENT } from './ledger-rpc';

/** One transaction's answer in a batch: sent, or the error kit would have thrown for its send alone. */
export type OrderedSendAnswer = { sent: true } | { sent: false; error: SolanaError };

/**
 * Sends transactions in one JSON-RPC batch to a node that executes a batch's requests in order and
 * each transaction before it answers (the local ledger). Rejects when the batch as a whole got no
 * usable answer: then nothing is known about any of them.
 */
export type OrderedSender = (
  wires: readonly Base64EncodedWireTransaction[],
  abortSignal: AbortSignal,
) => Promise<OrderedSendAnswer[]>;

interface JsonRpcAnswer {
  id: unknown;
  result?: unknown;
  error?: unknown;
}

const throwLikeKit = getThrowSolanaErrorResponseTransformer();

/** An ordered sender over a kit transport (in-process or HTTP): the same requests kit would send, in one. */
export function orderedSenderOver(transport: RpcTransport): OrderedSender {
  return async (wires, abortSignal) => {
    const payload = wires.map((wire, id) => ({
      jsonrpc: '2.0',
      id,
      method: 'sendTransaction',
      params: [wire, { encoding: 'base64', preflightCommitment: COMMITMENT }],
    }));
    const answers = await transport<unknown>({ payload, signal: abortSignal });
    if (!Array.isArray(answers) || answers.length !== wires.length) {
      throw new Error(`the node answered a batch of ${wires.length} sends with something else`);
    }
    const byId = new Map((answers as JsonRpcAnswer[]).map((answer) => [Number(answer.id), answer]));
    return payload.map((request) => {
      const answer = byId.get(request.id);
      if (answer === undefined) {
        throw new Error(`the node's batch answer has no entry ${request.id}`);
      }
      try {
        throwLikeKit(answer, { methodName: 'sendTransaction', params: request.params });
        return { sent: true };
      } catch (error) {
        return { sent: false, error: error as SolanaError };
      }
    });
  };
}
