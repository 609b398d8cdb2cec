import { createLogger, inServiceScope, serviceScopeLogger } from '@cts/platform';
import { InProcessBus } from './in-process-bus';
import { InProcessServer } from './in-process.transport';

describe('InProcessServer', () => {
  it("runs each handler as the service that made the server, not as the sender's", async () => {
    const bus = new InProcessBus();
    const gateway = createLogger('gateway', 'silent');
    const accounts = createLogger('account-service', 'silent');
    const seen: unknown[] = [];
    const server = inServiceScope(accounts, () => new InProcessServer(bus, 'account-service'));
    server.addHandler('account.get', () => {
      seen.push(serviceScopeLogger());
      return Promise.resolve('reply');
    });
    server.addHandler(
      'transfer.confirmed',
      () => {
        seen.push(serviceScopeLogger());
        return Promise.resolve();
      },
      true,
    );
    server.listen(() => undefined);

    await inServiceScope(gateway, async () => {
      expect(await bus.request('account.get', '{}')).toBe('reply');
      bus.publish('transfer.confirmed', '{}');
      await bus.drain();
    });

    expect(seen).toEqual([accounts, accounts]);
  });
});
