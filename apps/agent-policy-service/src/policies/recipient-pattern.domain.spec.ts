import fc from 'fast-check';
import { isRecipientAllowed, matchesRecipient, recipientPatternProblem } from './recipient-pattern.domain';

const ADDRESS = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';

describe('recipientPatternProblem', () => {
  it.each([
    '*',
    '@alice',
    '@ALICE',
    '@acme/payroll_bot',
    'example.com',
    'Shop.Example.COM',
    '*.example.com',
    '*.a.b.example.co.uk',
    'xn--bcher-kva.example',
    '1.2.3.4',
    ADDRESS,
  ])('accepts %p', (pattern) => {
    expect(recipientPatternProblem(pattern)).toBeNull();
  });

  it.each([
    ['', 'has an empty label'],
    ['*.', 'has an empty label'],
    ['*..com', 'has an empty label'],
    ['example..com', 'has an empty label'],
    ['.example.com', 'has an empty label'],
    ['example.com.', 'has an empty label'],
    ['**', 'wildcard'],
    ['*example.com', 'wildcard'],
    ['**.example.com', 'wildcard'],
    ['*.*.example.com', 'wildcard'],
    ['shop.*.com', 'wildcard'],
    ['example.*', 'wildcard'],
    ['*.com', 'at least two labels'],
    ['localhost', 'at least two labels'],
    ['-shop.example.com', 'label'],
    ['shop-.example.com', 'label'],
    ['shop_1.example.com', 'label'],
    ['sh op.example.com', 'label'],
    [`${'a'.repeat(64)}.com`, 'label'],
    [`${'a.'.repeat(127)}com`, 'longer than 253'],
    ['@', 'handle'],
    ['@al', 'handle'],
    ['@alice/', 'handle'],
    ['@alice.example.com', 'handle'],
    ['@*', 'handle'],
    ['0OIl', 'at least two labels'],
  ])('refuses %p (%s)', (pattern, problem) => {
    expect(recipientPatternProblem(pattern)).toContain(problem);
  });
});

describe('matchesRecipient', () => {
  it.each([
    ['*', '@anyone', true],
    ['*', 'shop.example.com', true],
    ['*', ADDRESS, true],
    ['@alice', '@alice', true],
    ['@alice', '@ALICE', true],
    ['@Alice', '@alice', true],
    ['@alice', '@alice2', false],
    ['@alice', '@alic', false],
    ['@acme/bot', '@acme/bot', true],
    ['@acme', '@acme/bot', false],
    ['example.com', 'example.com', true],
    ['example.com', 'EXAMPLE.com', true],
    ['example.com', 'shop.example.com', false],
    ['example.com', 'badexample.com', false],
    ['*.example.com', 'shop.example.com', true],
    ['*.example.com', 'a.b.shop.example.com', true],
    ['*.Example.com', 'SHOP.example.COM', true],
    ['*.example.com', 'example.com', false],
    ['*.example.com', 'badexample.com', false],
    ['*.example.com', '.example.com', false],
    ['*.example.com', 'example.com.evil.io', false],
    [ADDRESS, ADDRESS, true],
    [ADDRESS, ADDRESS.toLowerCase(), false],
    ['example.com', ADDRESS, false],
  ])('%p against %p: %p', (pattern, to, expected) => {
    expect(matchesRecipient(pattern, to)).toBe(expected);
  });
});

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
const domain = fc.array(label, { minLength: 2, maxLength: 4 }).map((labels) => labels.join('.'));
const randomCase = (s: string, flips: boolean[]) =>
  [...s].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c)).join('');

describe('recipient matching properties', () => {
  it('a wildcard pattern matches every subdomain, never the apex', () => {
    fc.assert(
      fc.property(domain, fc.array(label, { minLength: 1, maxLength: 3 }), (apex, sub) => {
        expect(recipientPatternProblem(`*.${apex}`)).toBeNull();
        expect(matchesRecipient(`*.${apex}`, `${sub.join('.')}.${apex}`)).toBe(true);
        expect(matchesRecipient(`*.${apex}`, apex)).toBe(false);
      }),
    );
  });

  it('a domain or handle matches itself in any letter case', () => {
    const handle = fc.stringMatching(/^@[a-z0-9_]{3,30}$/);
    fc.assert(
      fc.property(fc.oneof(domain, handle), fc.array(fc.boolean(), { minLength: 1 }), (pattern, flips) => {
        expect(recipientPatternProblem(randomCase(pattern, flips))).toBeNull();
        expect(matchesRecipient(randomCase(pattern, flips), pattern)).toBe(true);
        expect(matchesRecipient(pattern, randomCase(pattern, flips))).toBe(true);
      }),
    );
  });

  it('an exact domain never matches a different domain', () => {
    fc.assert(
      fc.property(domain, domain, (a, b) => {
        expect(matchesRecipient(a, b)).toBe(a === b);
      }),
    );
  });

  it('an empty list allows nobody; * allows everybody', () => {
    fc.assert(
      fc.property(fc.string(), (to) => {
        expect(isRecipientAllowed([], to)).toBe(false);
        expect(isRecipientAllowed(['*'], to)).toBe(true);
      }),
    );
  });

  it('a list allows a recipient when any one pattern does', () => {
    expect(isRecipientAllowed(['@bob', '*.shop.io'], 'pay.shop.io')).toBe(true);
    expect(isRecipientAllowed(['@bob', '*.shop.io'], 'shop.io')).toBe(false);
  });
});
