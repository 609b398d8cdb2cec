import { bodyProblem } from './body-problem';

const nested = (levels: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) {
    value = i % 2 === 0 ? [value] : { inner: value };
  }
  return value;
};
const tooDeep = { kind: 'too_deep' };

describe('bodyProblem', () => {
  it('counts objects and arrays, not the scalars in them', () => {
    expect(bodyProblem(nested(32), 32)).toBeNull();
    expect(bodyProblem(nested(33), 32)).toEqual(tooDeep);
    expect(bodyProblem('text', 0)).toBeNull();
    expect(bodyProblem(undefined, 0)).toBeNull();
  });

  it('finds the deep branch among shallow siblings', () => {
    expect(bodyProblem({ a: 1, b: [2, 3], c: { d: nested(4) } }, 5)).toEqual(tooDeep);
    expect(bodyProblem({ a: 1, b: [2, 3], c: { d: nested(3) } }, 5)).toBeNull();
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    expect(bodyProblem(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), 32)).toEqual(tooDeep);
  });

  it('names the field holding a lone surrogate, in a value or a key', () => {
    expect(bodyProblem({ name: 'ok', meta: { tags: ['a', 'b\ud83d'] } }, 32)).toEqual({
      kind: 'lone_surrogate',
      at: 'meta.tags.1',
    });
    expect(bodyProblem({ ['\udc00']: 1 }, 32)).toEqual({ kind: 'lone_surrogate', at: '\udc00' });
    expect(bodyProblem('\ud83d', 32)).toEqual({ kind: 'lone_surrogate', at: '' });
  });

  it('takes a surrogate pair (an emoji) as the one character it is', () => {
    expect(bodyProblem({ name: 'wallet \ud83d\udcb0', [`k\u{1F4B0}`]: '\u{1F600}' }, 32)).toBeNull();
  });
});
