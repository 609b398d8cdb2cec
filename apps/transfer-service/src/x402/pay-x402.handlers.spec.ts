import { type Account, createEnvelope, GetAccount, ok, PayX402, type RequestOf } from '@cts/contracts';
import { type CommandBus } from '@cts/messaging';
import { type Ledgers } from '../ledger/ledgers';
import { PayX402Handlers } from './pay-x402.handlers';

const USDC = { code: 'USDC', mint: 'Gh9ZwEmdLJ8DscKNTkTqPbNwLNNBjuSzaG9Vp2KGtKJr', decimals: 6 };

/** A 402 answer nobody can pay here: its only `accepts` entry is on another chain. */
const unpayable: RequestOf<typeof PayX402> = {
  account_id: 'acct_1',
  environment: 'test',
  api_key_id: 'key_1',
  payment_required: {
    x402Version: 2,
    resource: { url: 'https://api.example.com/report' },
    accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: '1000', asset: '0xabc', payTo: '0xdef' }],
  },
  resource: 'https://api.example.com/report',
  received_at: null,
  idempotency_key: null,
  approved_transaction_id: null,
};

function handlerFor(type: Account['type']) {
  const commands = {
    send: (command: unknown) => {
      if (command !== GetAccount) {
        throw new Error('only account.get is expected');
      }
      return Promise.resolve(ok({ account_id: 'acct_1', type } as Account));
    },
  } as unknown as CommandBus;
  const ledgers = { of: () => Promise.resolve({ assets: () => [USDC] }) } as unknown as Ledgers;
  // Only the caller and the quote are read before these answers: nothing else is touched.
  const deps = [
    commands,
    ledgers,
    null,
    null,
    null,
    null,
    Buffer.alloc(32),
  ] as unknown as ConstructorParameters<typeof PayX402Handlers>;
  return new PayX402Handlers(...deps);
}

const message = () =>
  createEnvelope(PayX402.topic, PayX402.version, unpayable, {
    correlationId: 'corr_1',
    environment: 'test',
    accountId: 'acct_1',
  });

describe('PayX402Handlers', () => {
  it.each(['personal', 'business'] as const)(
    "refuses a %s account's key with forbidden before reading its quote (even an unpayable one)",
    async (type) => {
      const handler = handlerFor(type);
      expect(await handler.pay(message())).toEqual({
        ok: false,
        error: { code: 'forbidden', message: 'x402 payments are made with an agent key' },
      });
    },
  );

  it("reads an agent's quote: an unpayable one is payment_requirements_unsupported", async () => {
    const handler = handlerFor('agent');
    const answer = await handler.pay(message());
    expect(answer).toMatchObject({ ok: false, error: { code: 'payment_requirements_unsupported' } });
  });
});
