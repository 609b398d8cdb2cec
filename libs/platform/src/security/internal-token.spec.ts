import { internalTokenCheck, internalTokenHeaders } from './internal-token';

const TOKEN = 'itk_0123456789abcdefghijklmnopqrstuv';

describe('internalTokenHeaders', () => {
  it('sends the token as a bearer token when one is configured', () => {
    expect(internalTokenHeaders(TOKEN)).toEqual({ authorization: `Bearer ${TOKEN}` });
  });

  it('sends nothing when none is configured', () => {
    expect(internalTokenHeaders(undefined)).toEqual({});
  });
});

describe('internalTokenCheck', () => {
  const allowed = internalTokenCheck(TOKEN);

  it('lets in a request that carries the configured token, whatever the case of the scheme', () => {
    expect(allowed(`Bearer ${TOKEN}`)).toBe(true);
    expect(allowed(`bearer ${TOKEN}`)).toBe(true);
    expect(allowed(internalTokenHeaders(TOKEN).authorization)).toBe(true);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['another token of the same length', `Bearer ${TOKEN.slice(0, -1)}x`],
    ['a shorter token', `Bearer ${TOKEN.slice(0, -1)}`],
    ['a longer token', `Bearer ${TOKEN}x`],
    ['the token without a scheme', TOKEN],
    ['the token under another scheme', `Basic ${TOKEN}`],
    ['a bearer with nothing after it', 'Bearer '],
    ['the token followed by more', `Bearer ${TOKEN} ${TOKEN}`],
  ])('refuses %s', (_case, authorization) => {
    expect(allowed(authorization)).toBe(false);
  });

  it('lets everything in when no token is configured, as before the token existed', () => {
    const open = internalTokenCheck(undefined);
    expect(open(undefined)).toBe(true);
    expect(open('Bearer anything')).toBe(true);
  });
});
