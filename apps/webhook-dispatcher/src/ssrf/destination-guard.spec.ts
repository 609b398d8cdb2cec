import { type LookupAddress } from 'node:dns';
import { type LookupOptions } from 'node:dns';
import { BlockedDestinationError, DestinationGuard } from './destination-guard';

const resolver = (answers: Record<string, LookupAddress[]>) => (host: string) =>
  answers[host] ? Promise.resolve(answers[host]) : Promise.reject(new Error(`ENOTFOUND ${host}`));

function lookup(guard: DestinationGuard, host: string, options: LookupOptions) {
  return new Promise<{ error: Error | null; address: unknown; family?: number }>((resolve) => {
    guard.lookup(host, options, (error, address, family) => resolve({ error, address, family }));
  });
}

describe('DestinationGuard', () => {
  const dns = {
    'public.example': [
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f::1', family: 6 },
    ],
    'private.example': [{ address: '10.0.0.7', family: 4 }],
    'mixed.example': [
      { address: '93.184.215.14', family: 4 },
      { address: 'fd00::7', family: 6 },
    ],
  };

  it('checks the URL, then every address its host resolves to', async () => {
    const guard = new DestinationGuard(resolver(dns), false);
    expect(await guard.check('https://public.example/hook')).toMatchObject({ ok: true });
    expect(await guard.check('https://private.example/hook')).toMatchObject({
      ok: false,
      message: 'url host private.example resolves to a private address',
    });
    expect(await guard.check('https://mixed.example/hook')).toMatchObject({ ok: false });
    expect(await guard.check('https://unknown.example/hook')).toMatchObject({
      ok: false,
      message: expect.stringContaining('does not resolve'),
    });
    expect(await guard.check('http://public.example/hook')).toMatchObject({ ok: false });
  });

  it('hands a socket only the addresses it checked, as one or all', async () => {
    const guard = new DestinationGuard(resolver(dns), false);
    expect(await lookup(guard, 'public.example', {})).toEqual({
      error: null,
      address: '93.184.215.14',
      family: 4,
    });
    expect(await lookup(guard, 'public.example', { family: 6 })).toEqual({
      error: null,
      address: '2606:2800:21f::1',
      family: 6,
    });
    expect(await lookup(guard, 'public.example', { all: true })).toEqual({
      error: null,
      address: dns['public.example'],
      family: undefined,
    });
  });

  it('fails the connection when the host now resolves to a refused address (rebinding)', async () => {
    const answers: Record<string, LookupAddress[]> = {
      'rebind.example': [{ address: '93.184.215.14', family: 4 }],
    };
    const guard = new DestinationGuard(resolver(answers), false);
    expect(await guard.check('https://rebind.example/')).toMatchObject({ ok: true });
    answers['rebind.example'] = [{ address: '127.0.0.1', family: 4 }];

    const result = await lookup(guard, 'rebind.example', { all: true });

    expect(result.error).toBeInstanceOf(BlockedDestinationError);
    expect(result.error?.message).toContain('loopback address');
    expect(result.error?.message).not.toContain('127.0.0.1');
  });

  it('lets loopback through with the development setting', async () => {
    const guard = new DestinationGuard(resolver({ 'dev.test': [{ address: '127.0.0.1', family: 4 }] }), true);
    expect(await lookup(guard, 'dev.test', {})).toEqual({ error: null, address: '127.0.0.1', family: 4 });
  });

  it('fails a connection to a name that no longer resolves as a DNS error, not a refusal', async () => {
    const guard = new DestinationGuard(resolver({}), false);

    const result = await lookup(guard, 'vanished.example', {});

    expect(result.error).not.toBeInstanceOf(BlockedDestinationError);
    expect(result.error).toMatchObject({
      code: 'ENOTFOUND',
      message: expect.stringContaining('does not resolve'),
    });
  });

  it('marks a refusal with the code the delivery log reads as destination_refused', async () => {
    const guard = new DestinationGuard(
      resolver({ 'meta.example': [{ address: '169.254.169.254', family: 4 }] }),
      true,
    );
    expect((await lookup(guard, 'meta.example', {})).error).toMatchObject({ code: 'EWEBHOOKBLOCKED' });
  });
});
