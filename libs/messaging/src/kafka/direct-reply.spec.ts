import { isDirectReply, isReplyUrl, replyUrlOf } from './direct-reply';

describe('direct replies: where a command header may send a reply', () => {
  it('takes the internal reply path of a replica over plain HTTP, by name or address', () => {
    expect(isReplyUrl(replyUrlOf('10.1.2.3', 9465))).toBe(true);
    expect(isReplyUrl(replyUrlOf('gateway-0.gateway', 9465))).toBe(true);
    expect(replyUrlOf('fd00::1', 9465)).toBe('http://[fd00::1]:9465/internal/v1/replies');
    expect(isReplyUrl(replyUrlOf('fd00::1', 9465))).toBe(true);
  });

  it('refuses any other path, a query, another scheme or what is not a URL', () => {
    for (const url of [
      'http://10.1.2.3:9465/metrics',
      'http://10.1.2.3:9465/internal/v1/replies?x=1',
      'https://10.1.2.3:9465/internal/v1/replies',
      'file:///internal/v1/replies',
      'not a url',
      42,
      undefined,
    ]) {
      expect(isReplyUrl(url)).toBe(false);
    }
  });

  it('reads as a reply only an object with a correlation id', () => {
    expect(isDirectReply({ id: 'c1', response: {} })).toBe(true);
    expect(isDirectReply({ response: {} })).toBe(false);
    expect(isDirectReply(null)).toBe(false);
    expect(isDirectReply('c1')).toBe(false);
  });
});
