import { type ErrorCode } from '@cts/contracts';

/**
 * The only place a domain error code becomes an HTTP status. Exhaustive: a new code in
 * `@cts/contracts` does not compile until it has a status here.
 */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  invalid_policy: 400,
  unauthorized: 401,
  insufficient_balance: 402,
  forbidden: 403,
  kyc_required: 403,
  test_mode_only: 403,
  not_agent_owner: 403,
  policy_violation: 403,
  not_found: 404,
  account_not_found: 404,
  api_key_not_found: 404,
  recipient_not_found: 404,
  agent_not_found: 404,
  transaction_not_found: 404,
  transfer_not_found: 404,
  webhook_not_found: 404,
  event_not_found: 404,
  x402_payment_not_found: 404,
  method_not_allowed: 405,
  handle_taken: 409,
  domain_taken: 409,
  transaction_expired: 409,
  transaction_already_decided: 409,
  quote_expired: 409,
  idempotency_key_in_use: 409,
  idempotency_key_reused: 422,
  recipient_not_confidential_ready: 422,
  decryption_proof_invalid: 422,
  payment_requirements_unsupported: 422,
  rate_limited: 429,
  invalid_message: 500,
  internal_error: 500,
  service_unavailable: 503,
};
