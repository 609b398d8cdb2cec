import {
  type CommandEnvelope,
  CreateAgent,
  fail,
  newId,
  ok,
  ProvisionLedgerAccount,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { decodeBase64, encryptMemoFor } from '@cts/crypto';
import { type InProcessBus } from '@cts/messaging';
import { serveCommand } from '@cts/testing';

/** What the fake transfer-service gives every new account as its `decryption_key`. */
export const FAKE_DECRYPTION_KEY = 'dk1_account-service-tests';

/**
 * transfer-service's half of account creation as account-service sees it: addresses per ledger, and
 * the decryption key encrypted to the caller's one-time key. `failNext` answers the next request with
 * an error.
 */
export class FakeTransferService {
  readonly received: CommandEnvelope<RequestOf<typeof ProvisionLedgerAccount>>[] = [];
  failNext: Result<never> | null = null;

  constructor(bus: InProcessBus) {
    serveCommand(bus, ProvisionLedgerAccount, this.received, ({ account_id, recipient_key }) => {
      const failure = this.failNext;
      this.failNext = null;
      if (failure) {
        return failure;
      }
      return ok({
        addresses: { test: `test-address-${account_id}`, live: `live-address-${account_id}` },
        encrypted_decryption_key: encryptMemoFor(
          decodeBase64(recipient_key) ?? new Uint8Array(),
          FAKE_DECRYPTION_KEY,
        ),
      });
    });
  }
}

/** agent-policy-service's part of creating an agent: a policy `{ "invalid": true }` is refused. */
export class FakeAgentPolicyService {
  readonly received: CommandEnvelope<RequestOf<typeof CreateAgent>>[] = [];

  constructor(bus: InProcessBus) {
    serveCommand(bus, CreateAgent, this.received, (request): Result<ResponseOf<typeof CreateAgent>> => {
      if (request.spend_policy.invalid === true) {
        return fail('invalid_policy', 'daily_limit_usdc is required', {
          param: 'spend_policy.daily_limit_usdc',
        });
      }
      return ok({
        account_id: request.agent_account_id,
        handle: request.handle,
        public_key: request.addresses.test,
        status: 'active',
        spend_policy_id: newId('pol'),
        owner_account_id: request.owner.account_id,
        created_at: new Date().toISOString(),
      });
    });
  }
}
