import {
  type AgentTransactionEventPayload,
  createEnvelope,
  type Envelope,
  type Environment,
  type EventContract,
  type PartyRef,
  type PayloadOf,
  type TransactionParty,
  type TransferEventPayload,
} from '@cts/contracts';
import { type InProcessBus } from '@cts/messaging';

export const party = (accountId: string, handle: string): PartyRef => ({ account_id: accountId, handle });

/** A transfer's sender: one of our accounts, with its ledger address; `owner` when it is an agent. */
export const senderParty = (
  accountId: string,
  handle: string,
  owner: PartyRef | null = null,
): TransactionParty => ({
  account_id: accountId,
  handle,
  address: `${handle.replace(/\W/g, '')}Address111`,
  owner,
});

/** A confirmed confidential transfer from `sender` to `recipient`; override any field. */
/**
 * When the test transfers were created and confirmed: recent, since a transfer's events are listed
 * and kept (30 days) by the transfer's `created_at`.
 */
export const TRANSFER_CREATED_AT = new Date(Date.now() - 2_000).toISOString();
export const TRANSFER_CONFIRMED_AT = new Date(Date.now() - 1_000).toISOString();

export function transferPayload(overrides: Partial<TransferEventPayload> = {}): TransferEventPayload {
  return {
    transfer_id: 'tr_0000000000000000000000test',
    status: 'confirmed',
    sender: senderParty('acct_alice', '@alice'),
    recipient: {
      account_id: 'acct_bob',
      handle: '@bob',
      address: 'BobAddress1111111111111111111111111111111111',
      owner: null,
    },
    to: '@bob',
    asset: 'USDC',
    confidential: true,
    chain_signature: '5sigsigsig',
    created_at: TRANSFER_CREATED_AT,
    confirmed_at: TRANSFER_CONFIRMED_AT,
    ...overrides,
  };
}

export function approvalPayload(
  overrides: Partial<AgentTransactionEventPayload> = {},
): AgentTransactionEventPayload {
  return {
    transaction_id: 'atx_0000000000000000000000test',
    status: 'pending_approval',
    agent: party('acct_bot', '@alice/bot'),
    owner: party('acct_alice', '@alice'),
    to: 'shop.example.com',
    asset: 'USDC',
    requested_at: '2026-01-02T03:04:05.000Z',
    expires_at: '2026-01-02T04:04:05.000Z',
    decided_at: null,
    transfer_id: null,
    ...overrides,
  };
}

export function eventEnvelope<E extends EventContract>(
  contract: E,
  payload: PayloadOf<E>,
  environment: Environment | null = 'test',
): Envelope<PayloadOf<E>> {
  return createEnvelope(contract.type, contract.version, contract.payload.parse(payload) as PayloadOf<E>, {
    correlationId: 'req_webhook_test',
    environment,
    accountId: null,
  });
}

/** Publishes an envelope on its contract's topic, as an outbox relay would (without a key, on partition 0, in order). */
export function publishEvent(
  bus: InProcessBus,
  contract: EventContract,
  envelope: Envelope,
  key?: string,
): void {
  bus.publish(contract.topic, JSON.stringify(envelope), key);
}
