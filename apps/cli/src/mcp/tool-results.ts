import { type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CtsApiError, CtsNetworkError } from '@cts/sdk';
import { NotAnAgentKeyError } from './agent-key-check';

/**
 * A tool's answer: the data for programs (`structuredContent`) and the same as JSON text for models.
 * An error leads with its `message` alone, for clients that show only the first text of a failure.
 */
export function structured(
  data: Record<string, unknown>,
  options: { isError?: boolean } = {},
): CallToolResult {
  const json = { type: 'text' as const, text: JSON.stringify(data, null, 2) };
  if (!options.isError) {
    return { content: [json], structuredContent: data };
  }
  const lead = typeof data.message === 'string' ? [{ type: 'text' as const, text: data.message }] : [];
  return { content: [...lead, json], structuredContent: data, isError: true };
}

/** A tool error: one sentence a model can act on, never a stack trace. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

const WHAT_TO_DO: Record<string, string> = {
  unauthorized:
    'The API key this server was started with was refused (unknown, revoked or malformed). Retrying will not help: ask your operator to restart the server with a valid agent key.',
  rate_limited:
    'Too many requests for now: wait a little, then retry (with the same idempotency_key for a payment).',
  kyc_required: 'This account may not move money until its identity checks are completed by its owner.',
  insufficient_balance:
    'The balance is too low for this payment: nothing moved. Pay less, or ask your owner to fund the agent.',
  recipient_not_found: 'No account matches this recipient: check the @handle, domain or address.',
  recipient_not_confidential_ready:
    'The recipient address cannot receive confidential payments yet: nothing moved. Ask the recipient for another address or an @handle.',
  idempotency_key_reused:
    'This idempotency_key was already used for a different payment: nothing new moved. Use a new key for a new payment, or repeat the exact same arguments to get the first result.',
  idempotency_key_in_use:
    'A payment with this idempotency_key is still being processed: wait a moment and retry with the same key.',
  test_mode_only: 'This action needs a test-mode (svc_test_) key.',
  service_unavailable:
    'The payment service is temporarily unavailable: retry later (with the same idempotency_key for a payment).',
};

/** What went wrong, as a code and one sentence, from any failure of an API call. */
export function describeFailure(error: unknown): { code: string; message: string } {
  if (error instanceof NotAnAgentKeyError) {
    return { code: 'not_an_agent', message: error.message };
  }
  if (error instanceof CtsApiError) {
    const advice = WHAT_TO_DO[error.code];
    if (advice) {
      return { code: error.code, message: advice };
    }
    const param = error.param ? ` (${error.param})` : '';
    return { code: error.code, message: `${error.message}${param} [${error.code}, HTTP ${error.status}]` };
  }
  if (error instanceof CtsNetworkError) {
    return {
      code: error.timedOut ? 'timeout' : 'unreachable',
      message: `The payment service could not be reached (${error.timedOut ? 'timed out' : 'no connection'}). Retry later; for a payment, retry with the same idempotency_key so money moves at most once.`,
    };
  }
  const text = error instanceof Error ? error.message : String(error);
  return {
    code: 'internal_error',
    message: `Unexpected failure in the MCP server: ${text.split('\n')[0] ?? ''}`,
  };
}

/**
 * Why the MCP server's own `fetch` of a resource failed (fetch's `TypeError` with the socket, DNS or
 * TLS error as its cause: `ECONNREFUSED`, `ENOTFOUND`, `bad port`…), or null when the error is not
 * one. API calls never throw it: the SDK client turns their failures into `CtsNetworkError`.
 */
export function resourceFetchFailure(error: unknown): string | null {
  // By name, not instanceof: fetch's errors may come from another realm (undici's own, a test VM).
  const { name, cause } = (error ?? {}) as { name?: unknown; cause?: { message?: unknown; code?: unknown } };
  if (name !== 'TypeError' || typeof cause?.message !== 'string') {
    return null;
  }
  const { message, code } = cause;
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

/** Runs a tool body; any failure becomes a tool error with words instead of an exception. */
export async function guarded(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return toolError(describeFailure(error).message);
  }
}
