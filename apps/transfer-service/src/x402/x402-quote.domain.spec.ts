import {
  decimalAmount,
  parseQuote,
  quoteExpired,
  receivedAtProblem,
  resourceHost,
} from './x402-quote.domain';
import { SOLANA_DEVNET, SOLANA_MAINNET } from './x402-networks.domain';

const USDC_MINT = 'Gh9ZwEmdLJ8DscKNTkTqPbNwLNNBjuSzaG9Vp2KGtKJr';
const PAY_TO = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const FEE_PAYER = '2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4';
const registry = [{ code: 'USDC', mint: USDC_MINT, decimals: 6 }];

const entry = (overrides: Record<string, unknown> = {}) => ({
  scheme: 'exact',
  network: SOLANA_DEVNET,
  amount: '10000',
  asset: USDC_MINT,
  payTo: PAY_TO,
  maxTimeoutSeconds: 60,
  extra: { feePayer: FEE_PAYER },
  ...overrides,
});
const answer = (accepts: unknown[], more: Record<string, unknown> = {}) => ({
  x402Version: 2,
  resource: { url: 'https://api.example.com/weather', description: '', mimeType: '' },
  accepts,
  ...more,
});

describe('parseQuote', () => {
  it('picks the first exact entry on the environment’s network in a registry asset, unchanged', () => {
    const other = entry({ scheme: 'upto' });
    const good = entry();
    const parsed = parseQuote(answer([other, good]), 'test', registry);
    expect(parsed.ok && parsed.value.chosen).toEqual({
      accepted: good,
      network: SOLANA_DEVNET,
      asset: registry[0],
      amount: 10000n,
      payTo: PAY_TO,
      feePayer: FEE_PAYER,
      memo: null,
      maxTimeoutSeconds: 60,
    });
    expect(parsed.ok && parsed.value.resourceUrl).toBe('https://api.example.com/weather');
  });

  it('keeps test and live apart: a live key does not pay on devnet, a test key not on mainnet', () => {
    expect(parseQuote(answer([entry()]), 'live', registry)).toMatchObject({
      ok: false,
      error: { code: 'payment_requirements_unsupported' },
    });
    expect(parseQuote(answer([entry({ network: SOLANA_MAINNET })]), 'test', registry).ok).toBe(false);
    expect(parseQuote(answer([entry({ network: SOLANA_MAINNET })]), 'live', registry).ok).toBe(true);
  });

  it.each([
    ['an asset outside the registry', { asset: FEE_PAYER }, 'not in the test registry'],
    ['a zero amount', { amount: '0' }, 'amount'],
    ['a fractional amount', { amount: '1.5' }, 'amount'],
    ['an amount above u64', { amount: '18446744073709551616' }, 'amount'],
    ['a payTo that is no address', { payTo: '0xabc' }, 'payTo'],
    ['a payTo of base58 that is not 32 bytes', { payTo: 'z'.repeat(44) }, 'payTo'],
    ['no fee payer', { extra: {} }, 'feePayer'],
    ['a fee payer of base58 that is not 32 bytes', { extra: { feePayer: 'z'.repeat(44) } }, 'feePayer'],
    ['a fee payer of 33 zero bytes', { extra: { feePayer: '1'.repeat(33) } }, 'feePayer'],
    ['a memo over 256 bytes', { extra: { feePayer: FEE_PAYER, memo: 'x'.repeat(257) } }, 'memo'],
    ['a memo that is not a string', { extra: { feePayer: FEE_PAYER, memo: { text: 'hi' } } }, 'memo'],
    ['no timeout', { maxTimeoutSeconds: 0 }, 'maxTimeoutSeconds'],
  ])('refuses %s, saying why', (_, overrides, why) => {
    const parsed = parseQuote(answer([entry(overrides)]), 'test', registry);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error.code).toBe('payment_requirements_unsupported');
    expect(!parsed.ok && parsed.error.message).toContain(why);
  });

  it.each([
    ['no resource', { resource: undefined }],
    ['a resource without url', { resource: { description: 'weather' } }],
    ['a resource url that is not a string', { resource: { url: 42 } }],
    ['a resource that is a string', { resource: 'https://api.example.com/weather' }],
  ])('refuses an answer with %s: the payment could not be bound to what it pays for', (_, more) => {
    expect(parseQuote(answer([entry()], more), 'test', registry)).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', param: 'payment_required.resource' },
    });
  });

  it('refuses other versions and an empty accepts list', () => {
    expect(parseQuote({ ...answer([entry()]), x402Version: 1 }, 'test', registry)).toMatchObject({
      ok: false,
      error: { code: 'payment_requirements_unsupported' },
    });
    expect(parseQuote(answer([]), 'test', registry)).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', param: 'payment_required.accepts' },
    });
  });
});

describe('quoteExpired', () => {
  const received = new Date('2026-01-01T00:00:00Z');
  it('expires maxTimeoutSeconds after the answer was received, not before', () => {
    expect(quoteExpired(received, 60, new Date('2026-01-01T00:01:00Z'))).toBe(false);
    expect(quoteExpired(received, 60, new Date('2026-01-01T00:01:00.001Z'))).toBe(true);
    expect(quoteExpired(null, 60, new Date('2030-01-01T00:00:00Z'))).toBe(false);
  });

  it('refuses a receipt time in the future (beyond a minute of clock skew), which would stretch the quote', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(receivedAtProblem(new Date('2026-01-01T00:00:59Z'), now)).toBeNull();
    expect(receivedAtProblem(new Date('2026-01-01T00:01:01Z'), now)).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', param: 'received_at' },
    });
    expect(receivedAtProblem(null, now)).toBeNull();
  });
});

describe('resourceHost', () => {
  it('is the lower-case host of an http(s) URL that is the quoted resource', () => {
    expect(
      resourceHost('https://API.Example.com:443/weather?city=x', 'https://api.example.com/weather?city=x'),
    ).toEqual({
      ok: true,
      value: 'api.example.com',
    });
    expect(resourceHost('https://api.example.com/weather#top', 'https://api.example.com/weather')).toEqual({
      ok: true,
      value: 'api.example.com',
    });
    expect(resourceHost('http://127.0.0.1:4021/paid', null)).toEqual({ ok: true, value: '127.0.0.1' });
  });

  it('refuses another resource than the quoted one: another host, path or query', () => {
    const quoted = 'https://api.example.com/weather';
    for (const other of [
      'https://api.example.com/other',
      'https://evil.example/weather',
      'http://api.example.com/weather',
      'https://api.example.com:8443/weather',
      'https://api.example.com/weather?x=1',
    ]) {
      expect(resourceHost(other, quoted)).toMatchObject({
        ok: false,
        error: { code: 'invalid_request', param: 'resource' },
      });
    }
    expect(resourceHost(quoted, 'https://api.example.com/weather?x=1').ok).toBe(false);
    expect(resourceHost(quoted, 'not a url').ok).toBe(false);
  });

  it('refuses a host longer than a DNS name can be (253 characters)', () => {
    const url = (host: string) => `https://${host}/weather`;
    const longest = `${'a.'.repeat(125)}com`;
    expect(resourceHost(url(longest), url(longest))).toEqual({ ok: true, value: longest });
    expect(resourceHost(url(`${longest}.`), url(`${longest}.`))).toEqual({ ok: true, value: longest });
    const tooLong = `a${longest}`;
    expect(resourceHost(url(tooLong), url(tooLong))).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', param: 'resource' },
    });
  });

  it('refuses non-http URLs', () => {
    expect(resourceHost('ftp://api.example.com/weather', null).ok).toBe(false);
    expect(resourceHost('not a url', null)).toMatchObject({ ok: false, error: { param: 'resource' } });
  });
});

describe('decimalAmount', () => {
  it('writes base units in the asset’s decimals', () => {
    expect(decimalAmount(10000n, 6)).toBe('0.01');
    expect(decimalAmount(12_500_000n, 6)).toBe('12.5');
    expect(decimalAmount(3_000_000n, 6)).toBe('3');
  });
});
