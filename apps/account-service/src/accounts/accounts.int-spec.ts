import {
  AddVerifiedDomain,
  AuthenticateApiKey,
  createEnvelope,
  CreateAccount,
  CreateApiKey,
  EventTopics,
  GetAccount,
  RecordApiKeyUsage,
  ResolveParties,
  RevokeApiKey,
  ListApiKeys,
  newId,
  SetKycStatus,
} from '@cts/contracts';
import { type RunningApp } from '@cts/runtime';
import {
  createTestDatabase,
  eventually,
  inProcessCommandBus,
  inProcessTestRuntime,
  type TestDatabase,
} from '@cts/testing';
import { decryptMemo, deriveElGamalPubkey, encodeBase64, generateElGamalSecret } from '@cts/crypto';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { start } from '../account-service';
import { FAKE_DECRYPTION_KEY, FakeAgentPolicyService, FakeTransferService } from '../testing/fake-peers';

const hash = (s: string) => createHash('sha256').update(s).digest('hex');
const context = { correlationId: 'req_test', environment: null, accountId: null };

describe('account-service over the in-process bus on a real PostgreSQL', () => {
  let db: TestDatabase;
  let service: RunningApp;
  let runtime: ReturnType<typeof inProcessTestRuntime>;
  let transfers: FakeTransferService;
  let policies: FakeAgentPolicyService;
  const published: { type: string; account_id: string | null }[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    runtime = inProcessTestRuntime(db.url);
    runtime.bus.subscribe(EventTopics.account, 'test-observer', (data) => {
      published.push(data as { type: string; account_id: string | null });
      return Promise.resolve();
    });
    transfers = new FakeTransferService(runtime.bus);
    policies = new FakeAgentPolicyService(runtime.bus);
    service = await start(runtime);
  });

  afterAll(async () => {
    await service.close();
    await db.drop();
  });

  const oneTimeSecret = generateElGamalSecret();
  const recipient_key = encodeBase64(deriveElGamalPubkey(oneTimeSecret));
  const count = async (sql: string): Promise<number> => {
    const [row] = (await service.app.get(DataSource).query(sql)) as [{ count: number }];
    return row.count;
  };

  const newAccount = (handle: string) => ({
    kind: 'account' as const,
    recipient_key,
    handle,
    type: 'personal' as const,
    kyc_status: 'verified' as const,
    api_keys: [
      {
        name: 'default',
        environment: 'test' as const,
        key_hash: hash(`${handle}-test`),
        prefix: 'svc_test_abcd',
      },
    ],
  });

  it('creates an account with its keys and publishes account.created through the outbox', async () => {
    const bus = inProcessCommandBus(runtime.bus);
    const created = await bus.send(CreateAccount, newAccount('@alice'), context);
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.value.account).toMatchObject({
      handle: '@alice',
      type: 'personal',
      kyc_status: 'verified',
    });
    expect(created.value.api_keys).toHaveLength(1);
    const fetched = await bus.send(GetAccount, { account_id: created.value.account.account_id }, context);
    expect(fetched).toEqual({ ok: true, value: created.value.account });
    await eventually(() => expect(published.filter((e) => e.type === 'account.created')).toHaveLength(1));
  });

  it('refuses a taken handle, also when two creations race', async () => {
    const bus = inProcessCommandBus(runtime.bus);
    const results = await Promise.all([
      bus.send(CreateAccount, newAccount('@bob'), context),
      bus.send(CreateAccount, newAccount('@bob'), context),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.error.code)).toEqual(['handle_taken']);
  });

  it('gives a redelivered command its first reply and no second effect', async () => {
    const envelope = createEnvelope(
      CreateAccount.topic,
      CreateAccount.version,
      CreateAccount.request.parse(newAccount('@carol')),
      context,
    );
    const provisionedBefore = transfers.received.length;
    const first = await runtime.bus.request(CreateAccount.topic, envelope);
    const second = await runtime.bus.request(CreateAccount.topic, envelope);
    expect((second as { payload: unknown }).payload).toEqual((first as { payload: unknown }).payload);
    expect(await count(`SELECT count(*)::int AS count FROM accounts.accounts WHERE handle = '@carol'`)).toBe(
      1,
    );
    // The redelivery was answered from the inbox: no second set of custody keys.
    expect(transfers.received.length - provisionedBefore).toBe(1);
  });

  it('gives a redelivered KYC change its first reply and publishes account.kyc_changed once', async () => {
    const created = await inProcessCommandBus(runtime.bus).send(
      CreateAccount,
      newAccount('@kyc_twice'),
      context,
    );
    if (!created.ok) throw new Error('setup failed');
    const accountId = created.value.account.account_id;
    const envelope = createEnvelope(
      SetKycStatus.topic,
      SetKycStatus.version,
      SetKycStatus.request.parse({ account_id: accountId, kyc_status: 'enhanced' }),
      context,
    );
    const first = await runtime.bus.request(SetKycStatus.topic, envelope);
    const second = await runtime.bus.request(SetKycStatus.topic, envelope);
    expect((first as { payload: unknown }).payload).toMatchObject({
      ok: true,
      value: { kyc_status: 'enhanced' },
    });
    expect((second as { payload: unknown }).payload).toEqual((first as { payload: unknown }).payload);
    expect(
      await count(
        `SELECT count(*)::int AS count FROM accounts.outbox WHERE envelope->>'type' = 'account.kyc_changed' AND key = '${accountId}'`,
      ),
    ).toBe(1);
  });

  it('gives a redelivered key creation its first reply: one key, not an internal error', async () => {
    const created = await inProcessCommandBus(runtime.bus).send(
      CreateAccount,
      newAccount('@key_twice'),
      context,
    );
    if (!created.ok) throw new Error('setup failed');
    const accountId = created.value.account.account_id;
    const key = {
      name: 'ci',
      environment: 'test' as const,
      key_hash: hash('@key_twice-ci'),
      prefix: 'svc_test_efgh',
    };
    const envelope = createEnvelope(
      CreateApiKey.topic,
      CreateApiKey.version,
      CreateApiKey.request.parse({ account_id: accountId, key, issued_by: accountId }),
      context,
    );
    const first = await runtime.bus.request(CreateApiKey.topic, envelope);
    const second = await runtime.bus.request(CreateApiKey.topic, envelope);
    expect((first as { payload: unknown }).payload).toMatchObject({ ok: true, value: { name: 'ci' } });
    expect((second as { payload: unknown }).payload).toEqual((first as { payload: unknown }).payload);
    expect(
      await count(`SELECT count(*)::int AS count FROM accounts.api_keys WHERE key_hash = '${key.key_hash}'`),
    ).toBe(1);
  });

  it('publishes no account.kyc_changed when the status set is the one it has', async () => {
    const bus = inProcessCommandBus(runtime.bus);
    const created = await bus.send(CreateAccount, newAccount('@kyc_same'), context);
    if (!created.ok) throw new Error('setup failed');
    const accountId = created.value.account.account_id;

    const unchanged = await bus.send(
      SetKycStatus,
      { account_id: accountId, kyc_status: 'verified' },
      context,
    );
    expect(unchanged).toMatchObject({ ok: true, value: { account_id: accountId, kyc_status: 'verified' } });
    const changed = await bus.send(SetKycStatus, { account_id: accountId, kyc_status: 'enhanced' }, context);
    expect(changed).toMatchObject({ ok: true, value: { kyc_status: 'enhanced' } });
    const events = await service.app.get(DataSource).query<{ status: string }[]>(
      `SELECT envelope->'payload'->>'kyc_status' AS status FROM accounts.outbox
       WHERE envelope->>'type' = 'account.kyc_changed' AND key = $1`,
      [accountId],
    );
    expect(events).toEqual([{ status: 'enhanced' }]);
  });

  it('publishes account.kyc_changed once when the same change arrives many times at once', async () => {
    const bus = inProcessCommandBus(runtime.bus);
    const created = await bus.send(
      CreateAccount,
      { ...newAccount('@kyc_race'), kyc_status: 'pending' as const },
      context,
    );
    if (!created.ok) throw new Error('setup failed');
    const accountId = created.value.account.account_id;
    // Ten PATCHes, each its own command: all read `pending` unless the change holds the row.
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        bus.send(SetKycStatus, { account_id: accountId, kyc_status: 'verified' }, context),
      ),
    );
    expect(results.every((r) => r.ok && r.value.kyc_status === 'verified')).toBe(true);
    expect(
      await count(
        `SELECT count(*)::int AS count FROM accounts.outbox WHERE envelope->>'type' = 'account.kyc_changed' AND key = '${accountId}'`,
      ),
    ).toBe(1);
  });

  it("verifies a domain asked for many times at once: every answer is its owner's, none a 409 or an error", async () => {
    const bus = inProcessCommandBus(runtime.bus);
    const [first, second] = await Promise.all([
      bus.send(CreateAccount, { ...newAccount('@dom_one'), type: 'business' as const }, context),
      bus.send(CreateAccount, { ...newAccount('@dom_two'), type: 'business' as const }, context),
    ]);
    if (!first.ok || !second.ok) throw new Error('setup failed');
    const one = first.value.account.account_id;
    const two = second.value.account.account_id;

    const same = await Promise.all(
      Array.from({ length: 10 }, () =>
        bus.send(AddVerifiedDomain, { account_id: one, domain: 'one.example' }, context),
      ),
    );
    const verifiedAt = new Set(same.map((r) => (r.ok ? r.value.verified_at : r.error.code)));
    expect(same.every((r) => r.ok && r.value.account_id === one)).toBe(true);
    expect(verifiedAt.size).toBe(1);

    const raced = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        bus.send(AddVerifiedDomain, { account_id: i % 2 ? one : two, domain: 'raced.example' }, context),
      ),
    );
    const [{ owner }] = (await service.app
      .get(DataSource)
      .query(`SELECT account_id AS owner FROM accounts.verified_domains WHERE domain = 'raced.example'`)) as [
      { owner: string },
    ];
    raced.forEach((result, i) => {
      const asker = i % 2 ? one : two;
      expect(result.ok ? result.value.account_id : result.error.code).toBe(
        asker === owner ? asker : 'domain_taken',
      );
    });
  });

  it('authenticates a key by its hash until it is revoked', async () => {
    const bus = inProcessCommandBus(runtime.bus);
    const created = await bus.send(CreateAccount, newAccount('@dave'), context);
    if (!created.ok) throw new Error('setup failed');
    const keyHash = hash('@dave-test');
    const principal = await bus.send(AuthenticateApiKey, { key_hash: keyHash }, context);
    expect(principal).toEqual({
      ok: true,
      value: {
        account_id: created.value.account.account_id,
        key_id: created.value.api_keys[0]?.key_id,
        environment: 'test',
      },
    });
    const keyOf = {
      account_id: created.value.account.account_id,
      key_id: created.value.api_keys[0]?.key_id ?? '',
    };
    // A live key cannot revoke a test key: the other world's key is as unknown as another account's.
    expect(await bus.send(RevokeApiKey, { ...keyOf, environment: 'live' }, context)).toMatchObject({
      ok: false,
      error: { code: 'api_key_not_found' },
    });
    expect(await bus.send(AuthenticateApiKey, { key_hash: keyHash }, context)).toMatchObject({ ok: true });
    const revoked = await bus.send(RevokeApiKey, { ...keyOf, environment: 'test' }, context);
    expect(revoked.ok && revoked.value.key_hash).toBe(keyHash);
    expect(await bus.send(AuthenticateApiKey, { key_hash: keyHash }, context)).toMatchObject({
      ok: false,
      error: { code: 'unauthorized' },
    });
  });

  it('never revokes another account’s key', async () => {
    const bus = inProcessCommandBus(runtime.bus);
    const owner = await bus.send(CreateAccount, newAccount('@erin'), context);
    const other = await bus.send(CreateAccount, newAccount('@frank'), context);
    if (!owner.ok || !other.ok) throw new Error('setup failed');
    const attempt = await bus.send(
      RevokeApiKey,
      {
        account_id: other.value.account.account_id,
        key_id: owner.value.api_keys[0]?.key_id ?? '',
        environment: 'test',
      },
      context,
    );
    expect(attempt).toMatchObject({ ok: false, error: { code: 'api_key_not_found' } });
  });

  it('adds flushed usage counts exactly once and keeps the latest use time', async () => {
    const bus = inProcessCommandBus(runtime.bus);
    const created = await bus.send(CreateAccount, newAccount('@gina'), context);
    if (!created.ok) throw new Error('setup failed');
    const keyId = created.value.api_keys[0]?.key_id ?? '';
    const flush = createEnvelope(
      RecordApiKeyUsage.topic,
      1,
      { usages: [{ key_id: keyId, requests: 3, last_used_at: '2026-01-02T00:00:00.000Z' }] },
      context,
    );
    await runtime.bus.request(RecordApiKeyUsage.topic, flush);
    await runtime.bus.request(RecordApiKeyUsage.topic, flush);
    await bus.send(
      RecordApiKeyUsage,
      { usages: [{ key_id: keyId, requests: 2, last_used_at: '2026-01-01T00:00:00.000Z' }] },
      context,
    );
    const listed = await bus.send(
      ListApiKeys,
      { account_id: created.value.account.account_id, environment: 'test' },
      context,
    );
    expect(listed.ok && listed.value.api_keys[0]).toMatchObject({
      request_count: 5,
      last_used_at: '2026-01-02T00:00:00.000Z',
    });
    expect(
      await bus.send(
        ListApiKeys,
        { account_id: created.value.account.account_id, environment: 'live' },
        context,
      ),
    ).toEqual({ ok: true, value: { api_keys: [] } });
  });

  it("refuses an agent's own key its request for another key, and lets its owner provision one", async () => {
    const bus = inProcessCommandBus(runtime.bus);
    const owner = await bus.send(CreateAccount, newAccount('@hank'), context);
    if (!owner.ok) throw new Error('setup failed');
    const ownerId = owner.value.account.account_id;
    const agent = await bus.send(
      CreateAccount,
      { kind: 'agent', owner_account_id: ownerId, name: 'bot', spend_policy: {}, recipient_key },
      context,
    );
    if (!agent.ok) throw new Error('setup failed');
    const agentId = agent.value.account.account_id;
    const key = {
      name: 'more',
      environment: 'test' as const,
      key_hash: hash('@hank/bot-more'),
      prefix: 'svc_test_abcd',
    };
    expect(
      await bus.send(CreateApiKey, { account_id: agentId, key, issued_by: agentId }, context),
    ).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(
      await bus.send(CreateApiKey, { account_id: agentId, key, issued_by: newId('acct') }, context),
    ).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(
      await bus.send(CreateApiKey, { account_id: agentId, key, issued_by: ownerId }, context),
    ).toMatchObject({ ok: true, value: { name: 'more' } });
  });

  it('provisions the ledger half itself and passes the decryption key back encrypted to the caller', async () => {
    const bus = inProcessCommandBus(runtime.bus);
    const created = await bus.send(CreateAccount, newAccount('@ivy'), context);
    if (!created.ok) throw new Error(`setup failed: ${created.error.code}`);
    const accountId = created.value.account.account_id;

    const provisioning = transfers.received.at(-1);
    expect(provisioning?.payload).toEqual({ account_id: accountId, recipient_key });
    expect(created.value.account.public_key).toBe(`live-address-${accountId}`);
    expect(created.value.agent).toBeNull();
    expect(decryptMemo(oneTimeSecret, created.value.encrypted_decryption_key)).toBe(FAKE_DECRYPTION_KEY);
    expect(JSON.stringify(created)).not.toContain(FAKE_DECRYPTION_KEY);
  });

  it('resolves who is who for a transfer: to a handle, to the sender itself, refusing unknown ones', async () => {
    const bus = inProcessCommandBus(runtime.bus);
    const sender = await bus.send(CreateAccount, newAccount('@resolve_sender'), context);
    const recipient = await bus.send(CreateAccount, newAccount('@resolve_recipient'), context);
    if (!sender.ok || !recipient.ok) throw new Error('setup failed');
    const senderId = sender.value.account.account_id;
    const recipientId = recipient.value.account.account_id;
    const resolve = (sender: string, to: string) =>
      bus.send(ResolveParties, { sender_account_id: sender, to, environment: 'test' }, context);
    const codeOf = (result: Awaited<ReturnType<typeof resolve>>) => (result.ok ? 'ok' : result.error.code);

    expect(await resolve(senderId, '@resolve_recipient')).toMatchObject({
      ok: true,
      value: {
        sender: {
          account_id: senderId,
          handle: '@resolve_sender',
          kyc_status: 'verified',
          address: `test-address-${senderId}`,
        },
        recipient: {
          kind: 'account',
          account_id: recipientId,
          handle: '@resolve_recipient',
          address: `test-address-${recipientId}`,
        },
      },
    });
    expect(await resolve(senderId, '@resolve_sender')).toMatchObject({
      ok: true,
      value: { sender: { account_id: senderId }, recipient: { kind: 'account', account_id: senderId } },
    });
    expect(codeOf(await resolve(senderId, '@nobody_here'))).toBe('recipient_not_found');
    expect(codeOf(await resolve(newId('acct'), '@resolve_recipient'))).toBe('account_not_found');
    expect(codeOf(await resolve(newId('acct'), '@nobody_here'))).toBe('account_not_found');
  });

  it('records no account when the ledger half fails', async () => {
    const bus = inProcessCommandBus(runtime.bus);
    transfers.failNext = { ok: false, error: { code: 'service_unavailable', message: 'ledger down' } };

    const created = await bus.send(CreateAccount, newAccount('@jack'), context);

    expect(created).toMatchObject({ ok: false, error: { code: 'service_unavailable' } });
    expect(await count(`SELECT count(*)::int AS count FROM accounts.accounts WHERE handle = '@jack'`)).toBe(
      0,
    );
  });

  it("creates an agent: its owner's handle and KYC, its policy at agent-policy-service, no key", async () => {
    const bus = inProcessCommandBus(runtime.bus);
    const owner = await bus.send(CreateAccount, newAccount('@kate'), context);
    if (!owner.ok) throw new Error('setup failed');
    const ownerId = owner.value.account.account_id;

    const agent = await bus.send(
      CreateAccount,
      { kind: 'agent', owner_account_id: ownerId, name: 'shopper', spend_policy: {}, recipient_key },
      { ...context, environment: 'test' },
    );

    if (!agent.ok) throw new Error(`agent creation failed: ${agent.error.code}`);
    expect(agent.value.account).toMatchObject({
      handle: '@kate/shopper',
      type: 'agent',
      kyc_status: 'verified',
    });
    expect(agent.value.api_keys).toEqual([]);
    expect(agent.value.agent).toMatchObject({
      account_id: agent.value.account.account_id,
      handle: '@kate/shopper',
      owner_account_id: ownerId,
    });
    expect(policies.received.at(-1)?.payload).toMatchObject({
      owner: { account_id: ownerId, handle: '@kate', type: 'personal' },
      agent_account_id: agent.value.account.account_id,
      addresses: {
        test: `test-address-${agent.value.account.account_id}`,
        live: `live-address-${agent.value.account.account_id}`,
      },
    });
    // The command's environment reaches agent-policy-service, which answers in it.
    expect(policies.received.at(-1)?.environment).toBe('test');
    await eventually(() =>
      expect(
        published.some(
          (e) => e.type === 'account.created' && e.account_id === agent.value.account.account_id,
        ),
      ).toBe(true),
    );
  });

  it('refuses an agent as the owner of an agent before provisioning anything', async () => {
    const bus = inProcessCommandBus(runtime.bus);
    const owner = await bus.send(CreateAccount, newAccount('@liam'), context);
    if (!owner.ok) throw new Error('setup failed');
    const agent = await bus.send(
      CreateAccount,
      {
        kind: 'agent',
        owner_account_id: owner.value.account.account_id,
        name: 'bot',
        spend_policy: {},
        recipient_key,
      },
      context,
    );
    if (!agent.ok) throw new Error('setup failed');
    const provisionedBefore = transfers.received.length;

    const nested = await bus.send(
      CreateAccount,
      {
        kind: 'agent',
        owner_account_id: agent.value.account.account_id,
        name: 'sub',
        spend_policy: {},
        recipient_key,
      },
      context,
    );

    expect(nested).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(transfers.received).toHaveLength(provisionedBefore);
  });

  it("gives an agent its owner's current KYC, after an upgrade too, and refuses setting an agent's own", async () => {
    const bus = inProcessCommandBus(runtime.bus);
    const owner = await bus.send(CreateAccount, { ...newAccount('@lena'), kyc_status: 'pending' }, context);
    if (!owner.ok) throw new Error('setup failed');
    const ownerId = owner.value.account.account_id;
    const agent = await bus.send(
      CreateAccount,
      { kind: 'agent', owner_account_id: ownerId, name: 'bot', spend_policy: {}, recipient_key },
      context,
    );
    if (!agent.ok) throw new Error('setup failed');
    const agentId = agent.value.account.account_id;
    const kycSeen = async () => {
      const me = await bus.send(GetAccount, { account_id: agentId, environment: 'test' }, context);
      const parties = await bus.send(
        ResolveParties,
        { sender_account_id: agentId, to: '@lena', environment: 'test' },
        context,
      );
      return [me.ok && me.value.kyc_status, parties.ok && parties.value.sender.kyc_status];
    };
    expect(await kycSeen()).toEqual(['pending', 'pending']);

    expect(
      await bus.send(SetKycStatus, { account_id: ownerId, kyc_status: 'verified' }, context),
    ).toMatchObject({
      ok: true,
    });
    expect(await kycSeen()).toEqual(['verified', 'verified']);

    const onAgent = await bus.send(SetKycStatus, { account_id: agentId, kyc_status: 'unverified' }, context);
    expect(onAgent).toMatchObject({ ok: false, error: { code: 'invalid_request', param: 'account_id' } });
    expect(await kycSeen()).toEqual(['verified', 'verified']);

    await bus.send(SetKycStatus, { account_id: ownerId, kyc_status: 'unverified' }, context);
    expect(await kycSeen()).toEqual(['unverified', 'unverified']);
  });

  it("answers agent-policy-service's refusal of the policy and records no agent account", async () => {
    const bus = inProcessCommandBus(runtime.bus);
    const owner = await bus.send(CreateAccount, newAccount('@mia'), context);
    if (!owner.ok) throw new Error('setup failed');

    const agent = await bus.send(
      CreateAccount,
      {
        kind: 'agent',
        owner_account_id: owner.value.account.account_id,
        name: 'bot',
        spend_policy: { invalid: true },
        recipient_key,
      },
      context,
    );

    expect(agent).toMatchObject({
      ok: false,
      error: { code: 'invalid_policy', param: 'spend_policy.daily_limit_usdc' },
    });
    expect(
      await count(`SELECT count(*)::int AS count FROM accounts.accounts WHERE handle = '@mia/bot'`),
    ).toBe(0);
  });

  it('dead-letters an invalid command with the reason and replies invalid_message', async () => {
    const invalid = createEnvelope(
      CreateAccount.topic,
      1,
      { kind: 'account', handle: 'no-at-sign', type: 'personal', api_keys: [], recipient_key },
      context,
    );
    const reply = (await runtime.bus.request(CreateAccount.topic, invalid)) as { payload: unknown };
    expect(reply.payload).toMatchObject({ ok: false, error: { code: 'invalid_message' } });
    const letter = runtime.bus.deadLetters.find(
      (d) => d.topic === 'account-service.dlq' && d.value.includes(invalid.id),
    );
    expect(JSON.parse(letter?.value ?? '{}')).toMatchObject({
      consumer: 'account-service',
      topic: 'account.create',
      reason: expect.stringContaining('handle'),
    });
  });
});
