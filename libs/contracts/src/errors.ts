import { z } from 'zod';
import { builtOnce } from './built-once';

/**
 * Stable error codes shared by every service. Services return them as values; only the gateway maps
 * them to HTTP statuses. WARNING: clients match on these strings — never rename one.
 */
export const ERROR_CODES = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'rate_limited',
  'idempotency_key_reused',
  'idempotency_key_in_use',
  'kyc_required',
  'test_mode_only',
  'handle_taken',
  'domain_taken',
  'account_not_found',
  'api_key_not_found',
  'insufficient_balance',
  'recipient_not_found',
  'recipient_not_confidential_ready',
  'decryption_proof_invalid',
  'invalid_policy',
  'not_agent_owner',
  'policy_violation',
  'agent_not_found',
  'transaction_not_found',
  'transaction_expired',
  'transaction_already_decided',
  'transfer_not_found',
  'quote_expired',
  'payment_requirements_unsupported',
  'x402_payment_not_found',
  'webhook_not_found',
  'event_not_found',
  'invalid_message',
  'service_unavailable',
  'internal_error',
] as const;

export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorBody = z.object({
  code: ErrorCode,
  message: z.string(),
  param: z.string().optional(),
  reason: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** What a command handler replies: a value, or a domain error with a stable code. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorBody };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail(
  code: ErrorCode,
  message: string,
  extra: { param?: string; reason?: string } = {},
): Result<never> {
  return { ok: false, error: { code, message, ...extra } };
}

const resultAround = builtOnce((value) =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: ErrorBody }),
  ]),
);

/** The reply schema around a response's, built once per response schema. */
export function resultSchema<T extends z.ZodType>(value: T) {
  return resultAround(value) as unknown as z.ZodDiscriminatedUnion<
    [
      z.ZodObject<{ ok: z.ZodLiteral<true>; value: T }>,
      z.ZodObject<{ ok: z.ZodLiteral<false>; error: typeof ErrorBody }>,
    ]
  >;
}

/** A domain error thrown where returning a value would thread through many layers. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: { param?: string; reason?: string } = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, ...this.details };
  }
}
