import { nestsDeeperThan } from './body-depth';

const nested = (levels: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) {
    value = i % 2 === 0 ? [value] : { inner: value };
  }
  return value;
};

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, not the scalars in them', () => {
    expect(nestsDeeperThan(nested(32), 32)).toBe(false);
    expect(nestsDeeperThan(nested(33), 32)).toBe(true);
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan(undefined, 0)).toBe(false);
  });

  it('finds the deep branch among shallow siblings', () => {
    expect(nestsDeeperThan({ a: 1, b: [2, 3], c: { d: nested(4) } }, 5)).toBe(true);
    expect(nestsDeeperThan({ a: 1, b: [2, 3], c: { d: nested(3) } }, 5)).toBe(false);
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    expect(nestsDeeperThan(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), 32)).toBe(true);
  });
});
