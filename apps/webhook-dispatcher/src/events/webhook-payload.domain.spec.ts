import { type TransferEventPayload } from '@cts/contracts';
import fc from 'fast-check';
import { approvalPayload, party, senderParty, transferPayload } from '../testing/event-factories';
import { parseSourceEvent, type SourceEvent } from './source-event.domain';
import { buildWebhookPayload, eventAudience } from './webhook-payload.domain';

const meta = { eventId: 'evt_1', occurredAt: new Date('2026-01-02T03:04:07.000Z') };
const transfer = (overrides: Partial<TransferEventPayload> = {}): SourceEvent => ({
  type: 'transfer.confirmed',
  data: transferPayload({
    created_at: '2026-01-02T03:04:05.000Z',
    confirmed_at: '2026-01-02T03:04:06.000Z',
    ...overrides,
  }),
});

const alice = party('acct_alice', '@alice');
const bob = party('acct_bob', '@bob');
const carol = party('acct_carol', '@carol');

describe('eventAudience', () => {
  it('is sender and recipient for a transfer between two accounts', () => {
    expect(eventAudience(transfer())).toEqual([
      { accountId: 'acct_alice', handle: '@alice' },
      { accountId: 'acct_bob', handle: '@bob' },
    ]);
  });

  it('adds the owner of an agent on either side', () => {
    const event = transfer({
      sender: senderParty('acct_bot', '@alice/bot', alice),
      recipient: { account_id: 'acct_shopbot', handle: '@carol/shop', address: 'ShopAddress', owner: carol },
    });
    expect(eventAudience(event).map((r) => r.accountId)).toEqual([
      'acct_bot',
      'acct_shopbot',
      'acct_alice',
      'acct_carol',
    ]);
  });

  it('is the sender alone when the recipient is an outside address', () => {
    expect(
      eventAudience(
        transfer({ recipient: { account_id: null, handle: null, address: 'Outside111', owner: null } }),
      ),
    ).toEqual([{ accountId: 'acct_alice', handle: '@alice' }]);
  });

  it('counts an account once, in its most direct role', () => {
    const ownerPaysOwnAgent = transfer({
      recipient: { account_id: 'acct_bot', handle: '@alice/bot', address: 'BotAddress', owner: alice },
    });
    expect(eventAudience(ownerPaysOwnAgent).map((r) => r.accountId)).toEqual(['acct_alice', 'acct_bot']);
    expect(buildWebhookPayload(ownerPaysOwnAgent, meta, 'acct_alice')).toMatchObject({
      direction: 'sent',
      counterparty: '@alice/bot',
    });
    expect(buildWebhookPayload(ownerPaysOwnAgent, meta, 'acct_alice')).not.toHaveProperty('agent');
  });

  it('is the agent and its owner for agent and approval events', () => {
    expect(
      eventAudience({ type: 'agent.transaction.approved', data: approvalPayload() }).map((r) => r.handle),
    ).toEqual(['@alice/bot', '@alice']);
  });
});

describe('buildWebhookPayload for transfers', () => {
  it('gives the sender the spec §6.2 transfer.confirmed payload', () => {
    expect(buildWebhookPayload(transfer(), meta, 'acct_alice')).toEqual({
      event_id: 'evt_1',
      event: 'transfer.confirmed',
      account: '@alice',
      timestamp: '2026-01-02T03:04:07.000Z',
      transfer_id: 'tr_0000000000000000000000test',
      status: 'confirmed',
      direction: 'sent',
      counterparty: '@bob',
      asset: 'USDC',
      confidential: true,
      chain_signature: '5sigsigsig',
      created_at: '2026-01-02T03:04:05.000Z',
      confirmed_at: '2026-01-02T03:04:06.000Z',
    });
  });

  it("gives the recipient its own side: received, from the sender's handle", () => {
    expect(buildWebhookPayload(transfer(), meta, 'acct_bob')).toMatchObject({
      account: '@bob',
      direction: 'received',
      counterparty: '@alice',
    });
  });

  it("gives an agent's owner the agent's direction and names the agent", () => {
    const event = transfer({
      sender: senderParty('acct_bot', '@alice/bot', alice),
      recipient: { ...bob, address: 'BobAddress', owner: null },
    });
    expect(buildWebhookPayload(event, meta, 'acct_alice')).toMatchObject({
      account: '@alice',
      direction: 'sent',
      counterparty: '@bob',
      agent: '@alice/bot',
    });
    const incoming = transfer({
      recipient: { account_id: 'acct_shop', handle: '@carol/shop', address: 'ShopAddress', owner: carol },
    });
    expect(buildWebhookPayload(incoming, meta, 'acct_carol')).toMatchObject({
      account: '@carol',
      direction: 'received',
      counterparty: '@alice',
      agent: '@carol/shop',
    });
  });

  it('names an outside recipient by its address', () => {
    const event = transfer({
      recipient: { account_id: null, handle: null, address: 'Outside111', owner: null },
    });
    expect(buildWebhookPayload(event, meta, 'acct_alice')).toMatchObject({ counterparty: 'Outside111' });
  });

  it('shows the amount of a non-confidential transfer', () => {
    expect(
      buildWebhookPayload(transfer({ confidential: false, amount: '12.5' }), meta, 'acct_bob'),
    ).toMatchObject({ amount: '12.5', confidential: false });
  });

  it('never shows an amount of a confidential transfer, to anyone, even if an event carried one', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('transfer.initiated', 'transfer.confirmed', 'transfer.failed' as const),
        fc.option(fc.stringMatching(/^\d{1,9}(\.\d{1,6})?$/), { nil: undefined }),
        fc.boolean(),
        (type, amount, agentSender) => {
          const data = transferPayload({
            confidential: true,
            ...(amount === undefined ? {} : { amount }),
            sender: agentSender
              ? senderParty('acct_bot', '@alice/bot', alice)
              : senderParty('acct_alice', '@alice'),
          });
          const event = { type, data } as SourceEvent;
          for (const { accountId } of eventAudience(event)) {
            const payload = buildWebhookPayload(event, meta, accountId);
            expect(payload).not.toHaveProperty('amount');
            if (amount !== undefined) {
              expect(JSON.stringify(payload)).not.toContain(`"${amount}"`);
            }
          }
        },
      ),
    );
  });

  it('carries the failure reason of a failed transfer', () => {
    const event: SourceEvent = {
      type: 'transfer.failed',
      data: transferPayload({ status: 'failed', failure_reason: 'ledger_rejected' }),
    };
    expect(buildWebhookPayload(event, meta, 'acct_alice')).toMatchObject({
      event: 'transfer.failed',
      failure_reason: 'ledger_rejected',
    });
  });

  it('is null for an account the event does not concern', () => {
    expect(buildWebhookPayload(transfer(), meta, 'acct_mallory')).toBeNull();
  });
});

describe('buildWebhookPayload for agent and approval events', () => {
  it('describes a held agent transaction to the owner, without an amount', () => {
    const event: SourceEvent = { type: 'agent.transaction.pending_approval', data: approvalPayload() };
    const payload = buildWebhookPayload(event, meta, 'acct_alice');
    expect(payload).toEqual({
      event_id: 'evt_1',
      event: 'agent.transaction.pending_approval',
      account: '@alice',
      timestamp: '2026-01-02T03:04:07.000Z',
      transaction_id: 'atx_0000000000000000000000test',
      status: 'pending_approval',
      agent: '@alice/bot',
      agent_account_id: 'acct_bot',
      owner: '@alice',
      to: 'shop.example.com',
      asset: 'USDC',
      requested_at: '2026-01-02T03:04:05.000Z',
      expires_at: '2026-01-02T04:04:05.000Z',
      decided_at: null,
      transfer_id: null,
      x402: null,
    });
    expect(buildWebhookPayload(event, meta, 'acct_bot')).toMatchObject({ account: '@alice/bot' });
  });

  it('tells the owner who a held x402 payment pays and for which resource', () => {
    const x402 = {
      pay_to: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
      resource: 'https://api.example.com/w',
    };
    const event: SourceEvent = {
      type: 'agent.transaction.pending_approval',
      data: approvalPayload({ to: 'api.example.com', x402 }),
    };
    expect(buildWebhookPayload(event, meta, 'acct_alice')).toMatchObject({ to: 'api.example.com', x402 });
  });

  it('describes a policy change by its changed fields and a new agent by its policy', () => {
    const parties = { agent: party('acct_bot', '@alice/bot'), owner: alice };
    const updated: SourceEvent = {
      type: 'agent.policy.updated',
      data: {
        ...parties,
        policy_id: 'pol_1',
        changed_fields: ['daily_limit_usdc'],
        updated_at: '2026-01-02T00:00:00.000Z',
      },
    };
    const created: SourceEvent = {
      type: 'agent.created',
      data: { ...parties, spend_policy_id: 'pol_1', created_at: '2026-01-01T00:00:00.000Z' },
    };
    expect(buildWebhookPayload(updated, meta, 'acct_alice')).toMatchObject({
      event: 'agent.policy.updated',
      agent: '@alice/bot',
      policy_id: 'pol_1',
      changed_fields: ['daily_limit_usdc'],
    });
    expect(buildWebhookPayload(created, meta, 'acct_bot')).toMatchObject({
      event: 'agent.created',
      account: '@alice/bot',
      spend_policy_id: 'pol_1',
    });
  });
});

describe('parseSourceEvent', () => {
  it('re-reads a stored event against its contract', () => {
    expect(parseSourceEvent('transfer.confirmed', transferPayload())).toEqual({
      type: 'transfer.confirmed',
      data: transferPayload(),
    });
    expect(parseSourceEvent('transfer.confirmed', { transfer_id: 'tr_1' })).toBeNull();
    expect(parseSourceEvent('account.created', {})).toBeNull();
  });
});
