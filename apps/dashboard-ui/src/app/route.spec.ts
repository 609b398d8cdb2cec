import { parseHash } from './route';

describe('parseHash', () => {
  it('reads the view name, the decoded path segments and the query', () => {
    const route = parseHash('#/agents/acct%201/history?status=failed');
    expect(route).toMatchObject({ name: 'agents', path: ['acct 1', 'history'] });
    expect(route?.query.get('status')).toBe('failed');
  });

  it('is no route for an in-page anchor such as the skip link', () => {
    expect(parseHash('#main')).toBeUndefined();
    expect(parseHash('')).toBeUndefined();
  });

  it('turns a badly percent-encoded hash into an unknown route instead of throwing', () => {
    expect(parseHash('#/agents/%E0%A4%A')).toMatchObject({ name: '', path: [] });
    expect(parseHash('#/%E0%A4%A')).toMatchObject({ name: '', path: [] });
  });
});
