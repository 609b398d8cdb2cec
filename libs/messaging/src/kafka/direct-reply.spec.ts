import { startMetricsServer } from '@cts/platform';
import { INTERNAL_REPLY_PATH, isDirectReply, isReplyUrl, postReply, replyUrlOf } from './direct-reply';

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

describe('postReply with INTERNAL_TOKEN', () => {
  const token = 'itk_0123456789abcdefghijklmnopqrstuv';

  it('sends the token to a replica that requires it; without it, or with another, false (the reply topic carries it)', async () => {
    const taken: unknown[] = [];
    const replica = await startMetricsServer(
      0,
      '127.0.0.1',
      {
        [INTERNAL_REPLY_PATH]: (reply) => {
          taken.push(reply);
          return true;
        },
      },
      token,
    );
    try {
      const url = replyUrlOf('127.0.0.1', replica.port);
      expect(await postReply(url, { id: 'c1', response: 1 }, token)).toBe(true);
      expect(await postReply(url, { id: 'c2', response: 2 })).toBe(false);
      expect(await postReply(url, { id: 'c3', response: 3 }, `${token.slice(0, -1)}x`)).toBe(false);
      expect(taken).toEqual([{ id: 'c1', response: 1 }]);
    } finally {
      await replica.close();
    }
  });
});
