import { type Environment, fail, ok, type Result } from '@cts/contracts';
import { isAddress } from '@solana/kit';
import { networkServes } from './x402-networks.domain';

/** One `accepts` entry exactly as the resource server sent it: it goes back unchanged as `accepted`. */
export type PaymentRequirements = Record<string, unknown> & {
  scheme: string;
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra?: Record<string, unknown>;
};

/** An asset of the environment's registry, by its mint. */
export interface RegistryAsset {
  code: string;
  mint: string;
  decimals: number;
}

/** The entry we will pay, with what the policy and the signer need. */
export interface ChosenRequirement {
  accepted: PaymentRequirements;
  network: string;
  asset: RegistryAsset;
  amount: bigint;
  payTo: string;
  feePayer: string;
  memo: string | null;
  maxTimeoutSeconds: number;
}

export interface ParsedQuote {
  /** `resource` of the 402 answer (v2: an object with `url`), passed back in the payload. */
  resource: Record<string, unknown>;
  /** The URL the 402 answer charges for: the payment is bound to it. */
  resourceUrl: string;
  extensions: Record<string, unknown> | null;
  chosen: ChosenRequirement;
}

const BASE_UNITS = /^[1-9][0-9]{0,19}$/;
const U64_MAX = 2n ** 64n - 1n;
/** The longest DNS name, written without its trailing dot. */
const MAX_HOST_LENGTH = 253;
/** The reference client's limit on a seller's memo. */
const MAX_MEMO_BYTES = 256;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Why this entry cannot be paid by a key of `environment`, or its parsed form. */
function chooseEntry(
  entry: unknown,
  environment: Environment,
  registry: readonly RegistryAsset[],
): ChosenRequirement | string {
  if (!isObject(entry)) {
    return 'an accepts entry is not an object';
  }
  const { scheme, network, amount, asset, payTo, maxTimeoutSeconds, extra } = entry;
  if (scheme !== 'exact') {
    return `scheme ${String(scheme)} is not supported (only exact)`;
  }
  if (typeof network !== 'string' || !networkServes(environment, network)) {
    return `network ${String(network)} is not the ${environment} network`;
  }
  const known = registry.find((candidate) => candidate.mint === asset);
  if (!known) {
    return `asset ${String(asset)} is not in the ${environment} registry`;
  }
  if (typeof amount !== 'string' || !BASE_UNITS.test(amount) || BigInt(amount) > U64_MAX) {
    return 'amount is not a positive integer of base units';
  }
  // An address is base58 of exactly 32 bytes: one of another length would pass a pattern and fail
  // only when the transaction is built, after the spend policy counted the payment.
  if (typeof payTo !== 'string' || !isAddress(payTo)) {
    return 'payTo is not a Solana address';
  }
  if (
    typeof maxTimeoutSeconds !== 'number' ||
    !Number.isInteger(maxTimeoutSeconds) ||
    maxTimeoutSeconds <= 0
  ) {
    return 'maxTimeoutSeconds is not a positive integer';
  }
  const feePayer = isObject(extra) ? extra.feePayer : undefined;
  if (typeof feePayer !== 'string' || !isAddress(feePayer)) {
    return 'extra.feePayer is missing or not a Solana address (the facilitator pays the fee in the exact scheme)';
  }
  const memo = isObject(extra) && extra.memo !== undefined ? extra.memo : null;
  if (memo !== null && typeof memo !== 'string') {
    return 'extra.memo is not a string';
  }
  if (memo !== null && Buffer.byteLength(memo, 'utf8') > MAX_MEMO_BYTES) {
    return `extra.memo is longer than ${MAX_MEMO_BYTES} bytes`;
  }
  return {
    accepted: entry as PaymentRequirements,
    network,
    asset: known,
    amount: BigInt(amount),
    payTo,
    feePayer,
    memo,
    maxTimeoutSeconds,
  };
}

/**
 * Reads an x402 v2 `402 Payment Required` answer (the decoded PAYMENT-REQUIRED header, or the body) and
 * picks the first `accepts` entry a key of `environment` can pay: scheme `exact`, the environment's
 * network, an asset of the registry. Nothing payable is `payment_requirements_unsupported`, saying why
 * for each entry.
 */
export function parseQuote(
  paymentRequired: Record<string, unknown>,
  environment: Environment,
  registry: readonly RegistryAsset[],
): Result<ParsedQuote> {
  if (paymentRequired.x402Version !== 2) {
    return fail('payment_requirements_unsupported', 'Only x402 version 2 answers are supported', {
      param: 'payment_required.x402Version',
    });
  }
  const resource = paymentRequired.resource;
  if (!isObject(resource) || typeof resource.url !== 'string' || resource.url === '') {
    return fail(
      'invalid_request',
      'payment_required.resource.url must name the URL being charged for (x402 version 2)',
      { param: 'payment_required.resource' },
    );
  }
  const accepts = paymentRequired.accepts;
  if (!Array.isArray(accepts) || accepts.length === 0) {
    return fail('invalid_request', 'payment_required.accepts must be a non-empty array', {
      param: 'payment_required.accepts',
    });
  }
  const problems: string[] = [];
  for (const entry of accepts) {
    const chosen = chooseEntry(entry, environment, registry);
    if (typeof chosen !== 'string') {
      return ok({
        resource,
        resourceUrl: resource.url,
        extensions: isObject(paymentRequired.extensions) ? paymentRequired.extensions : null,
        chosen,
      });
    }
    problems.push(chosen);
  }
  return fail('payment_requirements_unsupported', `No accepts entry can be paid: ${problems.join('; ')}`, {
    param: 'payment_required.accepts',
  });
}

/** Clocks differ a little; a receipt time further ahead than this is not a time the caller received it. */
const MAX_CLOCK_SKEW_MS = 60_000;

/** The quote's validity: `maxTimeoutSeconds` from when the caller received it. */
export function quoteExpired(receivedAt: Date | null, maxTimeoutSeconds: number, now: Date): boolean {
  return receivedAt !== null && now.getTime() > receivedAt.getTime() + maxTimeoutSeconds * 1000;
}

/** A `received_at` in the future would stretch the quote's validity: refused beyond the clock skew. */
export function receivedAtProblem(receivedAt: Date | null, now: Date): Result<never> | null {
  return receivedAt !== null && receivedAt.getTime() > now.getTime() + MAX_CLOCK_SKEW_MS
    ? fail('invalid_request', 'received_at is in the future', { param: 'received_at' })
    : null;
}

/**
 * The resource being paid for, as the policy sees it: its host (matched against the
 * `allowed_recipients` domain patterns). Only http(s) URLs. `quotedUrl`: the URL the 402 answer
 * charges for, which must be this very URL, query included (x402's `resource.url` is the URL of the
 * protected resource; another path or query is another resource). null: a payment bound before.
 */
export function resourceHost(resource: string, quotedUrl: string | null): Result<string> {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return fail('invalid_request', 'resource must be an absolute URL', { param: 'resource' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return fail('invalid_request', 'resource must be an http or https URL', { param: 'resource' });
  }
  if (quotedUrl !== null && !sameResource(url, quotedUrl)) {
    return fail('invalid_request', 'resource is not the URL the 402 answer charges for (its resource.url)', {
      param: 'resource',
    });
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  // A URL parser takes any length; DNS names stop at 253. The host goes on as the transaction's `to`,
  // which the policy and approval commands bound (a longer one failed there, after the checks).
  if (host.length > MAX_HOST_LENGTH) {
    return fail('invalid_request', `resource host is longer than ${MAX_HOST_LENGTH} characters`, {
      param: 'resource',
    });
  }
  return ok(host);
}

/** The same URL once parsed (host case, default port, escapes), but for the fragment a client never sends. */
function sameResource(url: URL, quotedUrl: string): boolean {
  try {
    return withoutFragment(new URL(quotedUrl)) === withoutFragment(url);
  } catch {
    return false;
  }
}

function withoutFragment(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

/** A decimal string of `amount` base units (`10000` with 6 decimals → `0.01`). */
export function decimalAmount(amount: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const whole = amount / scale;
  const fraction = (amount % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}
