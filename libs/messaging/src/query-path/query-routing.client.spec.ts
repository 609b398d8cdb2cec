import { createEnvelope } from '@cts/contracts';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { firstValueFrom, of } from 'rxjs';
import { type CommandClient } from '../command-bus';
import { INTERNAL_QUERY_PATH, parseQueryRoutes, QueryRoutingClient } from './query-routing.client';

const context = { correlationId: 'req_q', environment: 'test' as const, accountId: 'acct_1' };

const TOKEN = 'itk_0123456789abcdefghijklmnopqrstuv';

/**
 * A loopback stand-in for a service's internal port that echoes the query it got, with the
 * `Authorization` it came with; with `refuse`, it answers 401 as a service with another token does.
 */
async function service({ refuse = false } = {}): Promise<{
  url: string;
  seen: string[];
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}> {
  const seen: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url} ${(JSON.parse(body) as { type: string }).type}`);
      authorizations.push(req.headers.authorization);
      if (refuse) {
        res.writeHead(401).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ via: 'http' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    authorizations,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const kafka = (): CommandClient & { sent: string[] } => {
  const sent: string[] = [];
  return { sent, send: <T>(pattern: unknown) => (sent.push(String(pattern)), of({ via: 'kafka' } as T)) };
};

describe('parseQueryRoutes', () => {
  it('reads services and their replicas', () => {
    const routes = parseQueryRoutes(
      'account-service=http://a:9464,http://b:9464/; transfer-service=http://t:9464',
    );
    expect([...routes]).toEqual([
      ['account-service', ['http://a:9464', 'http://b:9464']],
      ['transfer-service', ['http://t:9464']],
    ]);
    expect(parseQueryRoutes(undefined).size).toBe(0);
  });

  it('refuses an unknown service or a URL with a path, saying which', () => {
    expect(() => parseQueryRoutes('ledger=http://l:1')).toThrow('unknown service "ledger"');
    expect(() => parseQueryRoutes('account-service=http://a:9464/internal')).toThrow(
      '"http://a:9464/internal" is not a base URL',
    );
  });
});

describe('QueryRoutingClient', () => {
  it('sends a read to its service over HTTP and a command over the wrapped client', async () => {
    const account = await service();
    const inner = kafka();
    const client = new QueryRoutingClient(inner, parseQueryRoutes(`account-service=${account.url}`));
    try {
      const read = await firstValueFrom(
        client.send('account.commands', createEnvelope('account.get', 1, { account_id: 'acct_1' }, context)),
      );
      const write = await firstValueFrom(
        client.send('account.commands', createEnvelope('account.set-kyc', 1, {}, context)),
      );
      const otherService = await firstValueFrom(
        client.send('transfer.commands', createEnvelope('transfer.list', 1, {}, context)),
      );
      expect([read, write, otherService]).toEqual([{ via: 'http' }, { via: 'kafka' }, { via: 'kafka' }]);
      expect(account.seen).toEqual([`POST ${INTERNAL_QUERY_PATH} account.get`]);
      expect(inner.sent).toEqual(['account.commands', 'transfer.commands']);
    } finally {
      await account.close();
    }
  });

  it('takes replicas in turn, skips one that is down, and falls back to Kafka when none answers', async () => {
    const [a, b] = [await service(), await service()];
    const down = await service();
    await down.close();
    const inner = kafka();
    const client = new QueryRoutingClient(
      inner,
      parseQueryRoutes(`account-service=${a.url},${down.url},${b.url}`),
    );
    try {
      for (let i = 0; i < 6; i++) {
        expect(
          await firstValueFrom(
            client.send('account.commands', createEnvelope('account.get', 1, {}, context)),
          ),
        ).toEqual({ via: 'http' });
      }
      // In turn a, down→b, b, a, down→b, b: the unreachable replica's turns go to the next one.
      expect([a.seen.length, b.seen.length]).toEqual([2, 4]);
      expect(inner.sent).toEqual([]);
      const none = new QueryRoutingClient(inner, parseQueryRoutes(`account-service=${down.url}`));
      expect(
        await firstValueFrom(none.send('account.commands', createEnvelope('account.get', 1, {}, context))),
      ).toEqual({ via: 'kafka' });
      expect(inner.sent).toEqual(['account.commands']);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('sends INTERNAL_TOKEN as a bearer token with every read, and no Authorization without one', async () => {
    const account = await service();
    try {
      const read = (client: QueryRoutingClient) =>
        firstValueFrom(
          client.send(
            'account.commands',
            createEnvelope('account.get', 1, { account_id: 'acct_1' }, context),
          ),
        );
      const routes = parseQueryRoutes(`account-service=${account.url}`);
      expect(await read(new QueryRoutingClient(kafka(), routes, TOKEN))).toEqual({ via: 'http' });
      expect(await read(new QueryRoutingClient(kafka(), routes))).toEqual({ via: 'http' });
      expect(account.authorizations).toEqual([`Bearer ${TOKEN}`, undefined]);
    } finally {
      await account.close();
    }
  });

  it('passes over a replica that refuses the token, and reads over Kafka when every one does', async () => {
    const [refusing, taking] = [await service({ refuse: true }), await service()];
    const inner = kafka();
    try {
      const read = (client: QueryRoutingClient) =>
        firstValueFrom(client.send('account.commands', createEnvelope('account.get', 1, {}, context)));
      const both = new QueryRoutingClient(
        inner,
        parseQueryRoutes(`account-service=${refusing.url},${taking.url}`),
        TOKEN,
      );
      expect(await read(both)).toEqual({ via: 'http' });
      expect([refusing.seen.length, taking.seen.length, inner.sent.length]).toEqual([1, 1, 0]);
      const onlyRefusing = new QueryRoutingClient(
        inner,
        parseQueryRoutes(`account-service=${refusing.url}`),
        TOKEN,
      );
      expect(await read(onlyRefusing)).toEqual({ via: 'kafka' });
      expect(inner.sent).toEqual(['account.commands']);
    } finally {
      await Promise.all([refusing.close(), taking.close()]);
    }
  });
});
