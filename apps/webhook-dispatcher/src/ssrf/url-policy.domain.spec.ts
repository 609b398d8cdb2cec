import { checkResolvedAddresses, checkWebhookUrl } from './url-policy.domain';

describe('checkWebhookUrl', () => {
  it('accepts an https URL with a host name, keeping the host to resolve', () => {
    const checked = checkWebhookUrl('https://Hooks.Example.com:8443/cts?x=1', false);
    expect(checked).toMatchObject({ ok: true, target: { host: 'hooks.example.com', literalClass: null } });
  });

  it('accepts a public IP literal without DNS', () => {
    expect(checkWebhookUrl('https://93.184.215.14/hook', false)).toMatchObject({
      ok: true,
      target: { literalClass: 'public' },
    });
    expect(checkWebhookUrl('https://[2606:4700:4700::1111]/hook', false)).toMatchObject({
      ok: true,
      target: { literalClass: 'public' },
    });
  });

  it.each([
    ['http://hooks.example.com/', /https/],
    ['ftp://hooks.example.com/', /https/],
    ['//hooks.example.com/', /absolute/],
    ['https://user@hooks.example.com/', /credentials/],
    [`https://hooks.example.com/${'a'.repeat(2100)}`, /2048/],
  ])('refuses %s', (url, message) => {
    expect(checkWebhookUrl(url, false)).toEqual({ ok: false, message: expect.stringMatching(message) });
  });

  it.each([
    ['https://127.0.0.1/', 'loopback'],
    ['https://2130706433/', 'loopback'],
    ['https://0x7f.1/', 'loopback'],
    ['https://127.1/', 'loopback'],
    ['https://[::1]/', 'loopback'],
    ['https://[::ffff:127.0.0.1]/', 'loopback'],
    ['https://localhost/', 'loopback'],
    ['https://LOCALHOST./', 'loopback'],
    ['https://a.b.localhost/', 'loopback'],
    ['https://10.1.1.1/', 'private'],
    ['https://192.168.0.10:8443/', 'private'],
    ['https://[fd00::1]/', 'private'],
    ['https://169.254.1.1/', 'link-local'],
    ['https://[fe80::1]/', 'link-local'],
    ['https://169.254.169.254/latest/meta-data/', 'metadata'],
    ['https://0.0.0.0/', 'unspecified'],
  ])('refuses %s as a %s address', (url, kind) => {
    expect(checkWebhookUrl(url, false)).toEqual({
      ok: false,
      message: expect.stringContaining(`${kind} address`),
    });
  });

  it('says "an" before a class that starts with a vowel', () => {
    expect(checkWebhookUrl('https://0.0.0.0/', false)).toEqual({
      ok: false,
      message: 'url must not point to an unspecified address',
    });
    expect(checkWebhookUrl('https://10.1.1.1/', false)).toEqual({
      ok: false,
      message: 'url must not point to a private address',
    });
    expect(checkResolvedAddresses('h.example', ['::'], false)).toEqual({
      ok: false,
      message: 'url host h.example resolves to an unspecified address',
    });
  });

  it('allows loopback and private targets with the development setting, never metadata', () => {
    expect(checkWebhookUrl('https://127.0.0.1:8443/hook', true).ok).toBe(true);
    expect(checkWebhookUrl('https://localhost:8443/hook', true).ok).toBe(true);
    expect(checkWebhookUrl('https://10.0.0.1/hook', true).ok).toBe(true);
    expect(checkWebhookUrl('https://169.254.169.254/', true)).toMatchObject({ ok: false });
    expect(checkWebhookUrl('https://[::ffff:169.254.169.254]/', true)).toMatchObject({ ok: false });
    expect(checkWebhookUrl('http://127.0.0.1/', true)).toMatchObject({ ok: false });
  });
});

describe('checkResolvedAddresses', () => {
  it('needs every resolved address to be allowed', () => {
    expect(checkResolvedAddresses('h.example', ['93.184.215.14', '2606:4700::1'], false)).toEqual({
      ok: true,
    });
    expect(checkResolvedAddresses('h.example', ['93.184.215.14', '10.0.0.1'], false)).toEqual({
      ok: false,
      message: 'url host h.example resolves to a private address',
    });
    expect(checkResolvedAddresses('h.example', ['::ffff:127.0.0.1'], false)).toMatchObject({ ok: false });
  });

  it('refuses a host without addresses', () => {
    expect(checkResolvedAddresses('h.example', [], true)).toEqual({
      ok: false,
      message: 'url host h.example does not resolve',
    });
  });
});
