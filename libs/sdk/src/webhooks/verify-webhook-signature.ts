import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { concatBytes, decodeBase64, timingSafeEqual, toBytes } from './bytes';
import { headerValue, type WebhookHeaders } from './webhook-headers';

export interface VerifyWebhookOptions {
  /** Largest accepted distance between `webhook-timestamp` and now, default 300 s. */
  toleranceSeconds?: number;
  /** The current time (Date or epoch milliseconds), for tests; default `Date.now()`. */
  now?: Date | number;
  /**
   * WEAKER: also accept a delivery that carries only `X-Service-Signature` (spec 6.3). That header
   * signs the body alone, with no timestamp, so a captured delivery verifies forever (replays).
   * Off by default; turn it on only for a receiver that cannot see the `webhook-*` headers.
   */
  allowServiceSignatureOnly?: boolean;
}

export type WebhookSignatureFailure =
  'missing_signature' | 'incomplete_headers' | 'invalid_signature' | 'timestamp_out_of_tolerance';

export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';

  constructor(readonly reason: WebhookSignatureFailure) {
    super(`Webhook signature check failed: ${reason}`);
  }
}

const SECRET_PREFIX = 'whsec_';
const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * `X-Service-Signature` (spec 6.3): hex HMAC-SHA256 of the raw body, keyed with the secret string as
 * given. Several space- or comma-separated values (a secret being rotated) pass when any one matches.
 */
function checkServiceSignature(
  secret: string,
  body: Uint8Array,
  signature: string,
): WebhookSignatureFailure | undefined {
  const expected = toBytes(bytesToHex(hmac(sha256, toBytes(secret), body)));
  let matched = false;
  for (const candidate of signature.split(/[\s,]+/).filter((value) => value.length > 0)) {
    matched = timingSafeEqual(expected, toBytes(candidate.toLowerCase())) || matched;
  }
  return matched ? undefined : 'invalid_signature';
}

function nowSeconds(now: Date | number | undefined): number {
  const ms = now === undefined ? Date.now() : now instanceof Date ? now.getTime() : now;
  return Math.floor(ms / 1000);
}

/**
 * Standard Webhooks: base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the bytes the secret's
 * base64 (after `whsec_`) encodes. The timestamp check is what refuses a replayed old delivery.
 */
function checkStandardSignature(
  secret: string,
  body: Uint8Array,
  headers: { id: string; timestamp: string; signature: string },
  options: VerifyWebhookOptions,
): WebhookSignatureFailure | undefined {
  const key = decodeBase64(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  if (!key || key.length === 0 || !/^\d{1,12}$/.test(headers.timestamp)) {
    return 'invalid_signature';
  }
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(nowSeconds(options.now) - Number(headers.timestamp)) > tolerance) {
    return 'timestamp_out_of_tolerance';
  }
  const signed = concatBytes(toBytes(`${headers.id}.${headers.timestamp}.`), body);
  const expected = hmac(sha256, key, signed);
  // Several signatures while a secret rotates; a comma may separate repeated headers once joined.
  const candidates = headers.signature.split(/\s+/).map((entry) => entry.replace(/,$/, ''));
  let matched = false;
  for (const candidate of candidates) {
    const [version, encoded] = candidate.split(',', 2);
    const bytes = version === 'v1' && encoded !== undefined ? decodeBase64(encoded) : undefined;
    // No early exit: every candidate costs the same whether or not an earlier one matched.
    matched = (bytes !== undefined && timingSafeEqual(bytes, expected)) || matched;
  }
  return matched ? undefined : 'invalid_signature';
}

/**
 * Throws `WebhookSignatureError` unless the delivery is authentic. By default the timestamped
 * Standard Webhooks headers are required (they sign id, timestamp and body, so an old delivery
 * replayed is refused), and an `X-Service-Signature` beside them must match as well (but see
 * `checkServiceBeside` on rotation); a delivery with only `X-Service-Signature` is refused unless
 * `allowServiceSignatureOnly` is set (weaker: no replay protection).
 */
export function assertWebhookSignature(
  secret: string,
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  options: VerifyWebhookOptions = {},
): void {
  const body = toBytes(rawBody);
  const service = headerValue(headers, 'x-service-signature');
  const id = headerValue(headers, 'webhook-id');
  const timestamp = headerValue(headers, 'webhook-timestamp');
  const signature = headerValue(headers, 'webhook-signature');
  const standardPresent = id !== undefined || timestamp !== undefined || signature !== undefined;
  if (!standardPresent) {
    if (service === undefined || options.allowServiceSignatureOnly !== true) {
      throw new WebhookSignatureError('missing_signature');
    }
    const failure = checkServiceSignature(secret, body, service);
    if (failure) {
      throw new WebhookSignatureError(failure);
    }
    return;
  }
  if (id === undefined || timestamp === undefined || signature === undefined) {
    throw new WebhookSignatureError('incomplete_headers');
  }
  const failure =
    checkStandardSignature(secret, body, { id, timestamp, signature }, options) ??
    checkServiceBeside(secret, body, service, signature);
  if (failure) {
    throw new WebhookSignatureError(failure);
  }
}

/**
 * Spec 6.3: a present `X-Service-Signature` must match too. Except while a secret rotates (several
 * `webhook-signature` values): the service signs that header with the new secret only, so a receiver
 * still holding the previous one could not match it, and the timestamped signature, which it did
 * match, decides.
 */
function checkServiceBeside(
  secret: string,
  body: Uint8Array,
  service: string | undefined,
  standardSignatures: string,
): WebhookSignatureFailure | undefined {
  const rotating = standardSignatures.split(/\s+/).filter((entry) => entry.length > 0).length > 1;
  return service === undefined || rotating ? undefined : checkServiceSignature(secret, body, service);
}

/** `true` when the delivery is authentic (see `assertWebhookSignature`); never throws for bad input. */
export function verifyWebhookSignature(
  secret: string,
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  options: VerifyWebhookOptions = {},
): boolean {
  try {
    assertWebhookSignature(secret, rawBody, headers, options);
    return true;
  } catch {
    return false;
  }
}
