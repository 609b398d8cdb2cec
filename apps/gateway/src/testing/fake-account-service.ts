import {
  type Account,
  AddVerifiedDomain,
  type ApiKey,
  AuthenticateApiKey,
  CreateAccount,
  CreateApiKey,
  fail,
  GetAccount,
  GetKeyTotals,
  ListApiKeys,
  newId,
  ok,
  RecordApiKeyUsage,
  type RequestOf,
  type ResponseOf,
  type Result,
  RevokeApiKey,
  SetKycStatus,
} from '@cts/contracts';
import { decodeBase64, encryptMemoFor } from '@cts/crypto';
import { type InProcessBus } from '@cts/messaging';
import { FakeService } from './fake-service';

/** What the fake hands out as every new account's `decryption_key` (encrypted on the way, as for real). */
export const FAKE_DECRYPTION_KEY = 'dk1_fake-decryption-key-for-gateway-tests';

interface StoredKey {
  key: ApiKey;
  accountId: string;
  hash: string;
}

/**
 * An in-memory account-service on an in-process bus, for the gateway's tests: real envelopes and
 * contracts, plus hooks to hold a reply (concurrency) or fail the next call of a topic.
 */
export class FakeAccountService extends FakeService {
  readonly accounts = new Map<string, Account>();
  readonly keys = new Map<string, StoredKey>();

  constructor(bus: InProcessBus) {
    super(bus);
    this.on(CreateAccount, (req) => this.createAccount(req));
    this.on(GetAccount, (req) => this.account(req.account_id));
    this.on(SetKycStatus, (req) => this.update(req.account_id, { kyc_status: req.kyc_status }));
    this.on(AddVerifiedDomain, (req) =>
      this.accounts.has(req.account_id)
        ? ok({ account_id: req.account_id, domain: req.domain, verified_at: new Date().toISOString() })
        : fail('account_not_found', 'No such account'),
    );
    this.on(CreateApiKey, (req) =>
      this.accounts.has(req.account_id)
        ? ok(this.storeKey(req.account_id, req.key))
        : fail('account_not_found', 'No such account'),
    );
    this.on(ListApiKeys, (req) =>
      ok({
        api_keys: [...this.keys.values()]
          .filter((k) => k.accountId === req.account_id && k.key.environment === req.environment)
          .map((k) => k.key),
      }),
    );
    this.on(RevokeApiKey, (req) => this.revoke(req.account_id, req.key_id, req.environment));
    this.on(AuthenticateApiKey, (req) => this.authenticate(req.key_hash));
    this.on(RecordApiKeyUsage, (req) => this.recordUsage(req.usages));
    // transfer-service's part of key usage, as far as the gateway needs it
    this.on(GetKeyTotals, () => ok({ totals: [] }));
  }

  storeKey(
    accountId: string,
    key: { name: string; environment: 'live' | 'test'; key_hash: string; prefix: string },
  ): ApiKey {
    const apiKey: ApiKey = {
      key_id: newId('key'),
      name: key.name,
      environment: key.environment,
      prefix: key.prefix,
      created_at: new Date().toISOString(),
      last_used_at: null,
      request_count: 0,
      revoked_at: null,
    };
    this.keys.set(apiKey.key_id, { key: apiKey, accountId, hash: key.key_hash });
    return apiKey;
  }

  /** Account creation as account-service answers it (it provisions the ledger half itself). */
  private createAccount(req: RequestOf<typeof CreateAccount>): Result<ResponseOf<typeof CreateAccount>> {
    const owner = req.kind === 'agent' ? this.accounts.get(req.owner_account_id) : undefined;
    if (req.kind === 'agent' && !owner) {
      return fail('account_not_found', 'No such account');
    }
    const handle = req.kind === 'agent' ? `${owner?.handle}/${req.name}` : req.handle;
    if ([...this.accounts.values()].some((a) => a.handle === handle)) {
      return fail('handle_taken', `${handle} is taken`);
    }
    const account_id = newId('acct');
    const account: Account = {
      account_id,
      handle,
      type: req.kind === 'agent' ? 'agent' : req.type,
      public_key: `live-address-${account_id}`,
      kyc_status: req.kind === 'agent' ? (owner?.kyc_status ?? 'unverified') : req.kyc_status,
      created_at: new Date().toISOString(),
    };
    this.accounts.set(account.account_id, account);
    const recipientKey = decodeBase64(req.recipient_key) ?? new Uint8Array();
    return ok({
      account,
      api_keys: req.kind === 'account' ? req.api_keys.map((key) => this.storeKey(account_id, key)) : [],
      encrypted_decryption_key: encryptMemoFor(recipientKey, FAKE_DECRYPTION_KEY),
      agent:
        req.kind === 'agent'
          ? {
              account_id,
              handle,
              public_key: account.public_key ?? '',
              status: 'active',
              spend_policy_id: newId('pol'),
              owner_account_id: req.owner_account_id,
              created_at: account.created_at,
            }
          : null,
    });
  }

  private account(accountId: string): Result<Account> {
    const account = this.accounts.get(accountId);
    return account ? ok(account) : fail('account_not_found', 'No such account');
  }

  private update(accountId: string, change: Partial<Account>): Result<Account> {
    const account = this.accounts.get(accountId);
    if (!account) {
      return fail('account_not_found', 'No such account');
    }
    const updated = { ...account, ...change };
    this.accounts.set(accountId, updated);
    return ok(updated);
  }

  private revoke(
    accountId: string,
    keyId: string,
    environment: string,
  ): Result<ResponseOf<typeof RevokeApiKey>> {
    const stored = this.keys.get(keyId);
    if (!stored || stored.accountId !== accountId || stored.key.environment !== environment) {
      return fail('api_key_not_found', 'No such API key');
    }
    stored.key = { ...stored.key, revoked_at: stored.key.revoked_at ?? new Date().toISOString() };
    return ok({ api_key: stored.key, key_hash: stored.hash });
  }

  private authenticate(hash: string): Result<ResponseOf<typeof AuthenticateApiKey>> {
    const stored = [...this.keys.values()].find((k) => k.hash === hash && k.key.revoked_at === null);
    return stored
      ? ok({ account_id: stored.accountId, key_id: stored.key.key_id, environment: stored.key.environment })
      : fail('unauthorized', 'Unknown API key');
  }

  private recordUsage(usages: RequestOf<typeof RecordApiKeyUsage>['usages']): Result<{ recorded: number }> {
    for (const usage of usages) {
      const stored = this.keys.get(usage.key_id);
      if (stored) {
        const last = stored.key.last_used_at;
        stored.key = {
          ...stored.key,
          request_count: stored.key.request_count + usage.requests,
          last_used_at: last && last > usage.last_used_at ? last : usage.last_used_at,
        };
      }
    }
    return ok({ recorded: usages.length });
  }
}
