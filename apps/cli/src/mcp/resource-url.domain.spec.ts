import { checkResourceUrl, isInternalHost, isLoopbackHost, patternAllowsHost } from './resource-url.domain';

const PAYEE = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';

describe('which URLs pay_for_resource may send a request to', () => {
  it.each([
    ['api.example.com', 'api.example.com', true],
    ['API.Example.COM', 'api.example.com', true],
    ['example.com', 'api.example.com', false],
    ['api.example.com', 'example.com', false],
    ['127.0.0.1', '127.0.0.1', true],
    ['*.example.com', 'api.example.com', true],
    ['*.example.com', 'a.b.c.example.com', true],
    ['*.Example.com', 'API.example.com'.toLowerCase(), true],
    ['*.example.com', 'example.com', false],
    ['*.example.com', 'badexample.com', false],
    ['*.example.com', 'example.com.evil.net', false],
    ['*', 'api.example.com', true],
    ['*', '93.184.215.14', true],
    ['*', '127.0.0.1', false],
    ['*', '10.1.2.3', false],
    ['*', '169.254.169.254', false],
    ['*', '[::1]', false],
    ['*', '[::ffff:7f00:1]', false],
    ['*', '[fd00::1]', false],
    ['*', 'localhost', false],
    ['*', 'admin.localhost', false],
    ['@bob', 'bob', false],
    ['@bob', '@bob', false],
    // A payee address lets the tool ask any public host: the service then pays only that payee.
    [PAYEE, 'api.example.com', true],
    [PAYEE, '127.0.0.1', false],
    [PAYEE, 'localhost', false],
  ])('pattern %s, host %s: %s', (pattern, host, allowed) => {
    expect(patternAllowsHost(pattern, host)).toBe(allowed);
  });

  it('tells loopback and internal hosts, whichever way the URL spells the address', () => {
    for (const url of ['http://127.0.0.1/', 'http://2130706433/', 'http://0x7f.1/', 'http://[::1]/']) {
      const host = new URL(url).hostname;
      expect([url, isLoopbackHost(host), isInternalHost(host)]).toEqual([url, true, true]);
    }
    for (const host of ['10.0.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', '0.0.0.0', '[fe80::1]']) {
      expect([host, isLoopbackHost(host), isInternalHost(host)]).toEqual([host, false, true]);
    }
    for (const host of ['172.32.0.1', '8.8.8.8', 'api.example.com', '[2606:4700::1111]']) {
      expect([host, isInternalHost(host)]).toEqual([host, false]);
    }
  });

  it('refuses a host outside the patterns, and says why', () => {
    const refused = checkResourceUrl(new URL('http://127.0.0.1:9465/metrics'), ['*.example.com', '@bob']);
    expect(refused).toMatchObject({ ok: false, host: '127.0.0.1', reason: 'recipient_not_allowed' });
    expect(checkResourceUrl(new URL('https://api.example.com/'), [])).toMatchObject({ ok: false });
    const internal = checkResourceUrl(new URL('http://127.0.0.1:18477/admin'), ['*']);
    expect(internal).toMatchObject({ ok: false, reason: 'recipient_not_allowed' });
    expect(internal.ok ? '' : internal.why).toMatch(/loopback.*name it/);
  });

  it('takes https to an allowed host, and plain http only from a loopback one', () => {
    expect(checkResourceUrl(new URL('https://API.example.com./x'), ['*.example.com'])).toEqual({
      ok: true,
      host: 'api.example.com',
    });
    expect(checkResourceUrl(new URL('http://127.0.0.1:4021/weather'), ['127.0.0.1'])).toEqual({
      ok: true,
      host: '127.0.0.1',
    });
    const plain = checkResourceUrl(new URL('http://api.example.com/x?q=1'), ['*.example.com']);
    expect(plain).toMatchObject({ ok: false, reason: 'https_required' });
    expect(plain.ok ? '' : plain.why).toContain('https://api.example.com/x?q=1');
    expect(checkResourceUrl(new URL('http://10.0.0.5/x'), ['10.0.0.5'])).toMatchObject({
      reason: 'https_required',
    });
    expect(checkResourceUrl(new URL('https://10.0.0.5/x'), ['10.0.0.5'])).toMatchObject({ ok: true });
  });
});
