import { SPEND_POLICY_FIELDS, type SpendPolicyField } from '@cts/contracts';
import { canonicalTimeZone, parseActiveHours } from './active-hours.domain';
import { assetDecimals, parseLimit, POLICY_ASSETS } from './policy-amounts.domain';
import { recipientPatternProblem } from './recipient-pattern.domain';
import { FIELD_PROPERTIES, POLICY_DEFAULTS, type SpendPolicyRules } from './spend-policy.domain';

/**
 * What is wrong and where: `field` is the API field name (a policy field, or the unknown field that
 * was sent), null when the policy is not an object at all.
 */
export interface PolicyProblem {
  field: string | null;
  message: string;
}

export type PolicyResult<T> = { ok: true; value: T } | { ok: false; problem: PolicyProblem };

export const MAX_RECIPIENT_PATTERNS = 100;
export const MAX_PATTERN_LENGTH = 256;
export const APPROVAL_WINDOW_MINUTES = { min: 1, max: 10_080 } as const;

type FieldParse<T> = { ok: true; value: T } | { ok: false; message: string };
type Parsers = {
  [F in SpendPolicyField]: (input: unknown) => FieldParse<SpendPolicyRules[(typeof FIELD_PROPERTIES)[F]]>;
};

function parseRecipients(input: unknown): FieldParse<string[]> {
  if (!Array.isArray(input) || input.some((p) => typeof p !== 'string')) {
    return { ok: false, message: 'must be an array of strings' };
  }
  const patterns = input as string[];
  if (patterns.length > MAX_RECIPIENT_PATTERNS) {
    return { ok: false, message: `must hold at most ${MAX_RECIPIENT_PATTERNS} patterns` };
  }
  for (const [index, pattern] of patterns.entries()) {
    const problem =
      pattern.length > MAX_PATTERN_LENGTH
        ? `is longer than ${MAX_PATTERN_LENGTH} characters`
        : recipientPatternProblem(pattern);
    if (problem) {
      return { ok: false, message: `pattern ${index} (${JSON.stringify(pattern)}) ${problem}` };
    }
  }
  return { ok: true, value: [...patterns] };
}

function parseAssets(input: unknown): FieldParse<string[]> {
  if (!Array.isArray(input) || input.some((a) => typeof a !== 'string')) {
    return { ok: false, message: 'must be an array of strings' };
  }
  const codes = (input as string[]).map((a) => a.toUpperCase());
  const unknown = (input as string[]).find((_, i) => assetDecimals(codes[i]) === undefined);
  if (unknown !== undefined) {
    return {
      ok: false,
      message: `has an unknown asset ${JSON.stringify(unknown)} (known: ${Object.keys(POLICY_ASSETS).join(', ')})`,
    };
  }
  return { ok: true, value: [...new Set(codes)] };
}

const limit = (input: unknown): FieldParse<bigint> => parseLimit(input);

const PARSERS: Parsers = {
  daily_limit_usdc: limit,
  per_transaction_limit_usdc: limit,
  allowed_recipients: parseRecipients,
  assets: parseAssets,
  active_hours: (input) => {
    if (input === null) {
      return { ok: true, value: null };
    }
    if (typeof input !== 'string') {
      return { ok: false, message: 'must be a string HH:MM-HH:MM or null' };
    }
    const parsed = parseActiveHours(input);
    return parsed.ok ? { ok: true, value: input } : parsed;
  },
  timezone: (input) => {
    const zone = typeof input === 'string' ? canonicalTimeZone(input) : null;
    return zone
      ? { ok: true, value: zone }
      : { ok: false, message: 'must be an IANA time zone name such as UTC or Europe/Paris' };
  },
  hitl_threshold_usdc: (input) => (input === null ? { ok: true, value: null } : limit(input)),
  approval_window_minutes: (input) => {
    const { min, max } = APPROVAL_WINDOW_MINUTES;
    return typeof input === 'number' && Number.isInteger(input) && input >= min && input <= max
      ? { ok: true, value: input }
      : { ok: false, message: `must be a whole number of minutes from ${min} to ${max}` };
  },
};

const isSpendPolicyField = (key: string): key is SpendPolicyField =>
  (SPEND_POLICY_FIELDS as readonly string[]).includes(key);

/** Parses the fields present in `raw` (undefined counts as absent); unknown fields are refused. */
function parseFields(
  raw: unknown,
): PolicyResult<{ rules: Partial<SpendPolicyRules>; given: SpendPolicyField[] }> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, problem: { field: null, message: 'must be an object' } };
  }
  const input = raw as Record<string, unknown>;
  const unknownField = Object.keys(input).find((key) => !isSpendPolicyField(key));
  if (unknownField !== undefined) {
    return {
      ok: false,
      problem: { field: unknownField, message: `${unknownField} is not a spend policy field` },
    };
  }
  const rules: Partial<Record<keyof SpendPolicyRules, unknown>> = {};
  const given: SpendPolicyField[] = [];
  for (const field of SPEND_POLICY_FIELDS) {
    if (input[field] === undefined) {
      continue;
    }
    const parsed = PARSERS[field](input[field]);
    if (!parsed.ok) {
      return { ok: false, problem: { field, message: `${field} ${parsed.message}` } };
    }
    rules[FIELD_PROPERTIES[field]] = parsed.value;
    given.push(field);
  }
  return { ok: true, value: { rules: rules as Partial<SpendPolicyRules>, given } };
}

/** Rules that hold between fields. `given` names the fields the client sent, to point at one of them. */
function crossFieldProblem(
  rules: SpendPolicyRules,
  given: readonly SpendPolicyField[],
): PolicyProblem | null {
  if (rules.perTransactionLimit > rules.dailyLimit) {
    const field =
      given.includes('per_transaction_limit_usdc') || !given.includes('daily_limit_usdc')
        ? 'per_transaction_limit_usdc'
        : 'daily_limit_usdc';
    return { field, message: 'per_transaction_limit_usdc must not exceed daily_limit_usdc' };
  }
  return null;
}

/** A policy on agent creation: limits required, the rest defaulted (ARCHITECTURE §6). */
export function validateNewPolicy(raw: unknown): PolicyResult<SpendPolicyRules> {
  const parsed = parseFields(raw);
  if (!parsed.ok) {
    return parsed;
  }
  const { rules: given, given: fields } = parsed.value;
  for (const field of ['daily_limit_usdc', 'per_transaction_limit_usdc'] as const) {
    if (!fields.includes(field)) {
      return { ok: false, problem: { field, message: `${field} is required` } };
    }
  }
  const rules: SpendPolicyRules = {
    dailyLimit: 0n,
    perTransactionLimit: 0n,
    ...POLICY_DEFAULTS,
    allowedRecipients: [...POLICY_DEFAULTS.allowedRecipients],
    assets: [...POLICY_DEFAULTS.assets],
    ...given,
  };
  const problem = crossFieldProblem(rules, fields);
  return problem ? { ok: false, problem } : { ok: true, value: rules };
}

export function rulesOf(policy: SpendPolicyRules): SpendPolicyRules {
  const {
    dailyLimit,
    perTransactionLimit,
    allowedRecipients,
    assets,
    activeHours,
    timezone,
    hitlThreshold,
    approvalWindowMinutes,
  } = policy;
  return {
    dailyLimit,
    perTransactionLimit,
    allowedRecipients,
    assets,
    activeHours,
    timezone,
    hitlThreshold,
    approvalWindowMinutes,
  };
}

const sameValue = (a: unknown, b: unknown): boolean =>
  Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((x, i) => x === b[i]) : a === b;

/**
 * A partial update: only the given fields change, and the merged policy must be valid as a whole
 * (a per-transaction limit above the daily limit is refused even if only one of them was sent).
 * `changed` lists the fields whose value actually changed, in API order.
 */
export function applyPolicyPatch(
  current: SpendPolicyRules,
  raw: unknown,
): PolicyResult<{ rules: SpendPolicyRules; changed: SpendPolicyField[] }> {
  const parsed = parseFields(raw);
  if (!parsed.ok) {
    return parsed;
  }
  const before = rulesOf(current);
  const rules: SpendPolicyRules = { ...before, ...parsed.value.rules };
  const problem = crossFieldProblem(rules, parsed.value.given);
  if (problem) {
    return { ok: false, problem };
  }
  const changed = parsed.value.given.filter(
    (field) => !sameValue(before[FIELD_PROPERTIES[field]], rules[FIELD_PROPERTIES[field]]),
  );
  return { ok: true, value: { rules, changed } };
}
