import { createHmac, randomBytes } from 'node:crypto';
import {
  assertWebhookSignature,
  verifyWebhookSignature,
  WebhookSignatureError,
  type VerifyWebhookOptions,
} from './verify-webhook-signature';

// Expected signatures come from node:crypto, independently of the code under test.
const secret = `whsec_${randomBytes(24).toString('base64')}`;
const otherSecret = `whsec_${randomBytes(24).toString('base64')}`;
const body = JSON.stringify({
  event_id: 'evt_1',
  event: 'transfer.confirmed',
  account: '@alice',
  memo: 'café ☕',
});
const timestamp = 1_760_000_000;
const at = (seconds: number): VerifyWebhookOptions => ({ now: seconds * 1000 });

function serviceSignature(key: string, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('hex');
}

function standardSignature(key: string, id: string, ts: number, payload: string): string {
  const keyBytes = Buffer.from(key.slice('whsec_'.length), 'base64');
  return createHmac('sha256', keyBytes).update(`${id}.${ts}.${payload}`).digest('base64');
}

function serviceHeaders(key = secret, payload = body): Record<string, string> {
  return { 'x-service-signature': serviceSignature(key, payload) };
}

function standardHeaders(key = secret, payload = body, ts = timestamp): Record<string, string> {
  return {
    'webhook-id': 'evt_1',
    'webhook-timestamp': String(ts),
    'webhook-signature': `v1,${standardSignature(key, 'evt_1', ts, payload)}`,
  };
}

function failureOf(headers: Record<string, string>, options = at(timestamp), payload = body): string {
  try {
    assertWebhookSignature(secret, payload, headers, options);
    return 'verified';
  } catch (error) {
    return error instanceof WebhookSignatureError ? error.reason : 'other error';
  }
}

describe('verifyWebhookSignature', () => {
  it('refuses X-Service-Signature alone by default: it has no timestamp, so a captured delivery would replay forever', () => {
    expect(verifyWebhookSignature(secret, body, serviceHeaders())).toBe(false);
    expect(failureOf(serviceHeaders())).toBe('missing_signature');
  });

  it('accepts X-Service-Signature alone only when asked to (hex HMAC of the body keyed with the whole secret string)', () => {
    const weaker = { allowServiceSignatureOnly: true };
    expect(verifyWebhookSignature(secret, body, serviceHeaders(), weaker)).toBe(true);
    expect(verifyWebhookSignature(secret, body, serviceHeaders(otherSecret), weaker)).toBe(false);
    expect(verifyWebhookSignature(secret, `${body} `, serviceHeaders(), weaker)).toBe(false);
    const rotating = {
      'x-service-signature': `${serviceSignature(otherSecret, body)} ${serviceSignature(secret, body)}`,
    };
    expect(verifyWebhookSignature(secret, body, rotating, weaker)).toBe(true);
  });

  it('accepts Standard Webhooks headers alone: HMAC keyed with the decoded secret', () => {
    expect(verifyWebhookSignature(secret, body, standardHeaders(), at(timestamp))).toBe(true);
  });

  it('accepts a delivery carrying both schemes', () => {
    expect(
      verifyWebhookSignature(secret, body, { ...serviceHeaders(), ...standardHeaders() }, at(timestamp)),
    ).toBe(true);
  });

  it('accepts the raw body as bytes (e.g. a Buffer from express.raw)', () => {
    const headers = { ...serviceHeaders(), ...standardHeaders() };
    expect(verifyWebhookSignature(secret, Buffer.from(body, 'utf8'), headers, at(timestamp))).toBe(true);
    expect(verifyWebhookSignature(secret, new TextEncoder().encode(body), headers, at(timestamp))).toBe(true);
  });

  it('looks headers up case-insensitively, in plain objects and in Headers', () => {
    const mixed = Object.fromEntries(
      Object.entries({ ...serviceHeaders(), ...standardHeaders() }).map(([name, value]) => [
        name.replace(/(^|-)\w/g, (letter) => letter.toUpperCase()),
        value,
      ]),
    );
    expect(Object.keys(mixed)).toContain('X-Service-Signature');
    expect(verifyWebhookSignature(secret, body, mixed, at(timestamp))).toBe(true);
    expect(verifyWebhookSignature(secret, body, new Headers(mixed), at(timestamp))).toBe(true);
  });

  it('refuses a tampered body under either scheme', () => {
    const tampered = body.replace('@alice', '@mallory');
    expect(
      verifyWebhookSignature(secret, tampered, serviceHeaders(), { allowServiceSignatureOnly: true }),
    ).toBe(false);
    expect(verifyWebhookSignature(secret, tampered, standardHeaders(), at(timestamp))).toBe(false);
  });

  it('refuses a signature made with another secret', () => {
    expect(verifyWebhookSignature(secret, body, serviceHeaders(otherSecret))).toBe(false);
    expect(verifyWebhookSignature(secret, body, standardHeaders(otherSecret), at(timestamp))).toBe(false);
  });

  it('refuses a tampered webhook-id or webhook-timestamp', () => {
    expect(
      verifyWebhookSignature(secret, body, { ...standardHeaders(), 'webhook-id': 'evt_2' }, at(timestamp)),
    ).toBe(false);
    const moved = { ...standardHeaders(), 'webhook-timestamp': String(timestamp + 1) };
    expect(verifyWebhookSignature(secret, body, moved, at(timestamp))).toBe(false);
  });

  it('refuses a timestamp outside the tolerance (default 300 s), in the past or the future', () => {
    expect(failureOf(standardHeaders(), at(timestamp + 300))).toBe('verified');
    expect(failureOf(standardHeaders(), at(timestamp - 300))).toBe('verified');
    expect(failureOf(standardHeaders(), at(timestamp + 301))).toBe('timestamp_out_of_tolerance');
    expect(failureOf(standardHeaders(), at(timestamp - 301))).toBe('timestamp_out_of_tolerance');
  });

  it('honours toleranceSeconds and a Date for now', () => {
    const now = new Date((timestamp + 20) * 1000);
    expect(verifyWebhookSignature(secret, body, standardHeaders(), { now, toleranceSeconds: 30 })).toBe(true);
    expect(verifyWebhookSignature(secret, body, standardHeaders(), { now, toleranceSeconds: 10 })).toBe(
      false,
    );
  });

  it('checks the timestamp against the clock by default', () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    expect(verifyWebhookSignature(secret, body, standardHeaders(secret, body, nowSeconds))).toBe(true);
    expect(verifyWebhookSignature(secret, body, standardHeaders(secret, body, nowSeconds - 3600))).toBe(
      false,
    );
  });

  it('accepts when any one of several signatures matches (secret rotation)', () => {
    const good = standardSignature(secret, 'evt_1', timestamp, body);
    const stale = standardSignature(otherSecret, 'evt_1', timestamp, body);
    const headers = { ...standardHeaders(), 'webhook-signature': `v1,${stale} v1,${good}` };
    expect(verifyWebhookSignature(secret, body, headers, at(timestamp))).toBe(true);
  });

  it('refuses when none of several signatures matches, or only an unknown version does', () => {
    const stale = standardSignature(otherSecret, 'evt_1', timestamp, body);
    const good = standardSignature(secret, 'evt_1', timestamp, body);
    expect(failureOf({ ...standardHeaders(), 'webhook-signature': `v1,${stale} v1,AAAA` })).toBe(
      'invalid_signature',
    );
    expect(failureOf({ ...standardHeaders(), 'webhook-signature': `v2,${good}` })).toBe('invalid_signature');
  });

  it('reads a signature header repeated by the transport (array or comma-joined)', () => {
    const good = standardSignature(secret, 'evt_1', timestamp, body);
    const stale = standardSignature(otherSecret, 'evt_1', timestamp, body);
    const asArray = { ...standardHeaders(), 'webhook-signature': [`v1,${stale}`, `v1,${good}`] };
    expect(verifyWebhookSignature(secret, body, asArray, at(timestamp))).toBe(true);
    const joined = new Headers(standardHeaders());
    joined.set('webhook-signature', `v1,${stale}`);
    joined.append('webhook-signature', `v1,${good}`);
    expect(verifyWebhookSignature(secret, body, joined, at(timestamp))).toBe(true);
  });

  it('refuses a delivery with no signature header at all', () => {
    expect(verifyWebhookSignature(secret, body, {})).toBe(false);
    expect(verifyWebhookSignature(secret, body, new Headers({ 'content-type': 'application/json' }))).toBe(
      false,
    );
    expect(failureOf({})).toBe('missing_signature');
  });

  it('lets the timestamped Standard Webhooks signature decide when it is present', () => {
    const wrongStandard = standardHeaders(otherSecret);
    expect(failureOf({ ...serviceHeaders(), ...wrongStandard })).toBe('invalid_signature');
    expect(failureOf({ ...serviceHeaders(), ...standardHeaders() }, at(timestamp + 3600))).toBe(
      'timestamp_out_of_tolerance',
    );
    const options = { ...at(timestamp + 3600), allowServiceSignatureOnly: true };
    expect(verifyWebhookSignature(secret, body, { ...serviceHeaders(), ...standardHeaders() }, options)).toBe(
      false,
    );
  });

  it('refuses a valid Standard Webhooks signature beside an X-Service-Signature that does not match (spec 6.3)', () => {
    const forged = { ...standardHeaders(), 'x-service-signature': '00'.repeat(32) };
    expect(verifyWebhookSignature(secret, body, forged, at(timestamp))).toBe(false);
    expect(failureOf(forged)).toBe('invalid_signature');
    expect(failureOf({ ...standardHeaders(), ...serviceHeaders(otherSecret) })).toBe('invalid_signature');
    expect(failureOf({ ...standardHeaders(), 'x-service-signature': 'zz' })).toBe('invalid_signature');
    expect(failureOf({ ...standardHeaders(), 'x-service-signature': '' })).toBe('invalid_signature');
  });

  it('keeps verifying with the previous secret during a rotation, though X-Service-Signature carries the new one only', () => {
    const rotating = {
      ...serviceHeaders(otherSecret),
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': `v1,${standardSignature(otherSecret, 'evt_1', timestamp, body)} v1,${standardSignature(secret, 'evt_1', timestamp, body)}`,
    };
    expect(failureOf(rotating)).toBe('verified');
  });

  it('refuses an incomplete set of Standard Webhooks headers, even next to a valid X-Service-Signature', () => {
    const { 'webhook-id': _id, ...withoutId } = standardHeaders();
    expect(failureOf({ ...serviceHeaders(), ...withoutId })).toBe('incomplete_headers');
  });

  it('refuses malformed values instead of throwing from the boolean variant', () => {
    expect(verifyWebhookSignature(secret, body, { 'x-service-signature': 'zz' })).toBe(false);
    expect(verifyWebhookSignature(secret, body, { ...standardHeaders(), 'webhook-timestamp': 'soon' })).toBe(
      false,
    );
    expect(verifyWebhookSignature('whsec_%%%', body, standardHeaders(), at(timestamp))).toBe(false);
    expect(verifyWebhookSignature(secret, body, { ...standardHeaders(), 'webhook-signature': 'v1,' })).toBe(
      false,
    );
  });

  it('accepts an upper-case hex X-Service-Signature when the bare HMAC is allowed', () => {
    const upper = { 'x-service-signature': serviceSignature(secret, body).toUpperCase() };
    expect(verifyWebhookSignature(secret, body, upper, { allowServiceSignatureOnly: true })).toBe(true);
  });
});
