import { renderHuman, renderJson } from './render';

describe('renderHuman', () => {
  it('aligns the values of one level under a title', () => {
    expect(renderHuman('title', { id: 'a', longer_key: 1, ok: true })).toBe(
      'title\n  id:         a\n  longer_key: 1\n  ok:         true\n',
    );
  });

  it('indents nested objects under their key and aligns each level on its own', () => {
    expect(renderHuman('t', { outer: { a: 'x', bbb: 'y' }, z: 'w' })).toBe(
      't\n  outer:\n    a:   x\n    bbb: y\n  z: w\n',
    );
  });

  it('shows null as a dash, lists inline and empty objects as JSON', () => {
    expect(renderHuman('t', { n: null, l: ['a', 'b'], e: [], o: {} })).toBe(
      't\n  n: -\n  l: a, b\n  e: (none)\n  o: {}\n',
    );
  });

  it('adds a shown-once note naming every secret by its path', () => {
    const text = renderHuman('t', { decryption_key: 'dk', keys: { test: { secret: 's1' } } });

    expect(text).toBe(
      [
        't',
        '  decryption_key: dk',
        '  keys:',
        '    test:',
        '      secret: s1',
        '',
        'note: decryption_key is shown once — store it now',
        'note: keys.test.secret is shown once — store it now',
        '',
      ].join('\n'),
    );
  });

  it('prints a non-object response on its own line', () => {
    expect(renderHuman('t', 'done')).toBe('t\n  done\n');
  });
});

describe('renderJson', () => {
  it('round-trips the response', () => {
    const value = { a: [1, { b: null }] };

    expect(JSON.parse(renderJson(value))).toEqual(value);
  });
});
