import { createDecryptionProof, decryptAmount, decryptMemo } from '@cts/sdk';
import { type CreatedAccount, http, uniqueHandle } from './http';
import { type StackUnderTest } from './foundation.behaviour';

interface Funded extends CreatedAccount {
  decryption_key: string;
  token: string;
}

interface TransferBody {
  transfer_id: string;
  status: string;
  direction: string;
  encrypted_amount: string;
  encrypted_memo: string | null;
  chain_signature: string | null;
}

interface BalancesBody {
  balances: {
    asset: string;
    has_balance: boolean;
    ciphertext?: string;
    decryptable_balance?: string;
    amount?: string;
  }[];
}

export async function account(
  stack: StackUnderTest,
  options: { kyc?: string; type?: string } = {},
): Promise<Funded> {
  const response = await http(stack.baseUrl, 'POST', '/admin/v1/accounts', {
    token: stack.adminToken,
    body: {
      handle: uniqueHandle('tr'),
      type: options.type ?? 'personal',
      kyc_status: options.kyc ?? 'verified',
    },
  });
  expect(response.status).toBe(201);
  const created = response.body as CreatedAccount & { decryption_key: string };
  return { ...created, token: created.api_keys.test.secret };
}

export async function fund(
  stack: StackUnderTest,
  who: Funded,
  amount: string,
  asset = 'USDC',
): Promise<void> {
  const response = await http(stack.baseUrl, 'POST', '/v1/sandbox/fund', {
    token: who.token,
    body: { asset, amount },
  });
  expect(response).toMatchObject({ status: 200, body: { asset, status: 'confirmed' } });
}

const send = (
  stack: StackUnderTest,
  from: Funded,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) => http(stack.baseUrl, 'POST', '/v1/transfers', { token: from.token, body, headers });

/** The balance as the account holder reads it: ciphertext from the API, decrypted and proven client-side. */
export async function provenBalance(
  stack: StackUnderTest,
  who: Funded,
  asset = 'USDC',
): Promise<string | undefined> {
  const withCiphertext = await http(stack.baseUrl, 'GET', '/v1/accounts/me/balances?include=ciphertext', {
    token: who.token,
  });
  const entry = (withCiphertext.body as BalancesBody).balances.find((b) => b.asset === asset);
  if (!entry?.ciphertext) {
    throw new Error(`no ${asset} ciphertext: ${JSON.stringify(withCiphertext.body)}`);
  }
  const proof = createDecryptionProof(who.decryption_key, [
    { asset, ciphertext: entry.ciphertext, decryptableBalance: entry.decryptable_balance },
  ]);
  const proven = await http(
    stack.baseUrl,
    'GET',
    `/v1/accounts/me/balances?decryption_proof=${encodeURIComponent(proof)}`,
    { token: who.token },
  );
  expect(proven.status).toBe(200);
  return (proven.body as BalancesBody).balances.find((b) => b.asset === asset)?.amount;
}

/** Issue 3's behaviours through HTTP, the same in both modes. */
export function transfersBehaviour(stack: () => StackUnderTest): void {
  it('settles a confidential transfer whose amount and memo only the parties can open', async () => {
    const [alice, bob] = [await account(stack()), await account(stack())];
    expect(alice.decryption_key).toMatch(/^dk1_/);
    await fund(stack(), alice, '100');
    const sent = await send(stack(), alice, { to: bob.account.handle, amount: '12.517293', memo: 'lunch' });
    expect(sent.status).toBe(200);
    const transfer = sent.body as TransferBody;
    expect(transfer).toMatchObject({
      status: 'confirmed',
      to: bob.account.handle,
      confidential: true,
      asset: 'USDC',
    });
    expect(transfer.transfer_id).toMatch(/^tr_/);
    expect(transfer.chain_signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(JSON.stringify(sent.body)).not.toMatch(/12\.517293|12517293/);
    expect(decryptAmount(alice.decryption_key, transfer.encrypted_amount, 'USDC')).toBe('12.517293');
    expect(decryptMemo(alice.decryption_key, transfer.encrypted_memo ?? '')).toBe('lunch');

    const received = await http(stack().baseUrl, 'GET', `/v1/transfers/${transfer.transfer_id}`, {
      token: bob.token,
    });
    expect(received.body).toMatchObject({
      direction: 'received',
      from: alice.account.handle,
      status: 'confirmed',
    });
    const forBob = received.body as TransferBody;
    expect(decryptAmount(bob.decryption_key, forBob.encrypted_amount, 'USDC')).toBe('12.517293');
    expect(decryptMemo(bob.decryption_key, forBob.encrypted_memo ?? '')).toBe('lunch');
    expect(() => decryptAmount(alice.decryption_key, forBob.encrypted_amount, 'USDC')).toThrow();

    expect(await provenBalance(stack(), alice)).toBe('87.482707');
    expect(await provenBalance(stack(), bob)).toBe('12.517293');
    const keys = await http(stack().baseUrl, 'GET', '/v1/api-keys', { token: alice.token });
    const testKey = (
      keys.body as { api_keys: { key_id: string; encrypted_usdc_total: string | null }[] }
    ).api_keys.find((k) => k.key_id === alice.api_keys.test.key_id);
    expect(decryptAmount(alice.decryption_key, testKey?.encrypted_usdc_total ?? '', 'USDC')).toBe(
      '12.517293',
    );
  }, 60_000);

  it('shows public_key as the account address of the key’s own ledger', async () => {
    const alice = await account(stack());
    const test = await http(stack().baseUrl, 'GET', '/v1/accounts/me', { token: alice.api_keys.test.secret });
    const live = await http(stack().baseUrl, 'GET', '/v1/accounts/me', { token: alice.api_keys.live.secret });
    const [testKey, liveKey] = [
      (test.body as { public_key: string }).public_key,
      (live.body as { public_key: string }).public_key,
    ];
    expect(testKey).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(liveKey).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(testKey).not.toBe(liveKey);
  });

  it('answers every create-transfer error with its documented code and moves nothing', async () => {
    const [alice, bob] = [await account(stack()), await account(stack())];
    await fund(stack(), alice, '5');
    const cases: [Record<string, unknown>, number, string, string?][] = [
      [{ to: bob.account.handle, amount: '6' }, 402, 'insufficient_balance'],
      [{ to: '@nobody_here_at_all', amount: '1' }, 404, 'recipient_not_found'],
      [{ to: alice.account.handle, amount: '1' }, 400, 'invalid_request', 'to'],
      [{ to: bob.account.handle, amount: '1.0000001' }, 400, 'invalid_request', 'amount'],
      [{ to: bob.account.handle, amount: '0' }, 400, 'invalid_request', 'amount'],
      [{ to: bob.account.handle, amount: '-1' }, 400, 'invalid_request', 'amount'],
      [{ to: bob.account.handle, amount: 1 }, 400, 'invalid_request', 'amount'],
      [{ to: bob.account.handle, amount: '1', asset: 'DOGE' }, 400, 'invalid_request', 'asset'],
      [{ to: bob.account.handle, amount: '1', colour: 'red' }, 400, 'invalid_request', 'colour'],
      [{ amount: '1' }, 400, 'invalid_request', 'to'],
      [{ to: 'not a recipient!', amount: '1' }, 400, 'invalid_request', 'to'],
    ];
    for (const [body, status, code, param] of cases) {
      const response = await send(stack(), alice, body);
      expect({
        body,
        status: response.status,
        code: (response.body as { error: { code: string } }).error.code,
      }).toEqual({ body, status, code });
      if (param) {
        expect(response.body).toMatchObject({ error: { param } });
      }
    }
    const listed = await http(stack().baseUrl, 'GET', '/v1/transfers', { token: alice.token });
    expect((listed.body as { transfers: unknown[] }).transfers).toHaveLength(0);
    const unverified = await account(stack(), { kyc: 'unverified' });
    expect((await send(stack(), unverified, { to: bob.account.handle, amount: '1' })).status).toBe(403);
    expect(
      (await http(stack().baseUrl, 'GET', '/v1/accounts/me/balances', { token: unverified.token })).body,
    ).toMatchObject({
      error: { code: 'kyc_required' },
    });
  }, 60_000);

  it('refuses a confidential transfer to an address without confidential balances, then sends a standard one', async () => {
    const alice = await account(stack());
    await fund(stack(), alice, '3');
    const outside = 'GsbwXfJraMomNxBcjYLcG3mxkBUiyWXAB32fGbSMQRdW';
    const refused = await send(stack(), alice, { to: outside, amount: '1' });
    expect(refused).toMatchObject({
      status: 422,
      body: { error: { code: 'recipient_not_confidential_ready' } },
    });
    const standard = await send(stack(), alice, { to: outside, amount: '1', confidential: false });
    expect(standard).toMatchObject({
      status: 200,
      body: { status: 'confirmed', confidential: false, to: outside },
    });
    expect(await provenBalance(stack(), alice)).toBe('2');
  }, 60_000);

  it('lets an account see and spend what standard transfers paid in', async () => {
    const [alice, bob, carol, dave] = [
      await account(stack()),
      await account(stack()),
      await account(stack()),
      await account(stack()),
    ];
    await fund(stack(), alice, '5');
    const standard = (to: string, amount: string) =>
      send(stack(), alice, { to, amount, confidential: false });
    expect((await standard(bob.account.handle, '2')).body).toMatchObject({ status: 'confirmed' });
    // Spent confidentially before any balance read: the settlement moves it in first.
    expect((await send(stack(), bob, { to: carol.account.handle, amount: '1.5' })).body).toMatchObject({
      status: 'confirmed',
    });
    expect(await provenBalance(stack(), bob)).toBe('0.5');

    expect((await standard(dave.account.handle, '1')).body).toMatchObject({ status: 'confirmed' });
    expect(
      (await send(stack(), dave, { to: carol.account.handle, amount: '0.4', confidential: false })).body,
    ).toMatchObject({ status: 'confirmed' });
    const balances = await http(stack().baseUrl, 'GET', '/v1/accounts/me/balances', { token: dave.token });
    expect(balances.body).toMatchObject({
      balances: expect.arrayContaining([{ asset: 'USDC', has_balance: true }]),
    });
    expect(await provenBalance(stack(), dave)).toBe('0.6');
    expect(await provenBalance(stack(), carol)).toBe('1.9');
  }, 60_000);

  it('returns the same transfer for a retried or raced Idempotency-Key and moves the money once', async () => {
    const [alice, bob] = [await account(stack()), await account(stack())];
    await fund(stack(), alice, '10');
    const headers = { 'Idempotency-Key': `idem-${alice.account.account_id}` };
    const body = { to: bob.account.handle, amount: '4' };
    const [first, second] = await Promise.all([
      send(stack(), alice, body, headers),
      send(stack(), alice, body, headers),
    ]);
    const retried = await send(stack(), alice, body, headers);
    const ids = [first, second, retried].map((r) => (r.body as TransferBody).transfer_id);
    expect(new Set(ids).size).toBe(1);
    expect((await send(stack(), alice, { ...body, amount: '5' }, headers)).body).toMatchObject({
      error: { code: 'idempotency_key_reused' },
    });
    expect(await provenBalance(stack(), alice)).toBe('6');
  }, 60_000);

  it('never overdraws an account under parallel transfers', async () => {
    const [alice, bob] = [await account(stack()), await account(stack())];
    await fund(stack(), alice, '10');
    const results = await Promise.all(
      Array.from({ length: 5 }, () => send(stack(), alice, { to: bob.account.handle, amount: '3' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 402, 402]);
    expect(await provenBalance(stack(), alice)).toBe('1');
  }, 90_000);

  // More senders than a service's database pool has connections: each sender's settlement holds
  // its account lock throughout (with ten, the locks once held every connection and nothing moved).
  it('settles transfers from sixteen accounts at once', async () => {
    const recipient = await account(stack());
    const senders = await Promise.all(Array.from({ length: 16 }, () => account(stack())));
    await Promise.all(senders.map((sender) => fund(stack(), sender, '1')));
    const results = await Promise.all(
      senders.map((sender) => send(stack(), sender, { to: recipient.account.handle, amount: '0.25' })),
    );
    expect(results.map((r) => [r.status, (r.body as TransferBody).status])).toEqual(
      senders.map(() => [200, 'confirmed']),
    );
    expect(await provenBalance(stack(), recipient)).toBe('4');
  }, 120_000);

  it('lists only the caller’s transfers of the key’s environment, newest first, with filters and pages', async () => {
    const [alice, bob, carol] = [await account(stack()), await account(stack()), await account(stack())];
    await fund(stack(), alice, '10');
    const before = new Date().toISOString();
    for (const to of [bob, carol, bob]) {
      expect((await send(stack(), alice, { to: to.account.handle, amount: '1' })).status).toBe(200);
    }
    const page = await http(stack().baseUrl, 'GET', '/v1/transfers?limit=2', { token: alice.token });
    expect(page.body).toMatchObject({ limit: 2, offset: 0, has_more: true });
    const all = await http(
      stack().baseUrl,
      'GET',
      `/v1/transfers?from=${encodeURIComponent(before)}&status=confirmed`,
      { token: alice.token },
    );
    const transfers = (all.body as { transfers: { to: string; created_at: string }[] }).transfers;
    expect(transfers.map((t) => t.to)).toEqual([bob, carol, bob].map((a) => a.account.handle).reverse());
    expect((await http(stack().baseUrl, 'GET', '/v1/transfers', { token: carol.token })).body).toMatchObject({
      transfers: [{ direction: 'received' }],
    });
    expect(
      (await http(stack().baseUrl, 'GET', '/v1/transfers', { token: alice.api_keys.live.secret })).body,
    ).toMatchObject({ transfers: [] });
    expect(
      (await http(stack().baseUrl, 'GET', '/v1/transfers?limit=101', { token: alice.token })).status,
    ).toBe(400);
    expect(
      (await http(stack().baseUrl, 'GET', '/v1/transfers?offset=-1', { token: alice.token })).status,
    ).toBe(400);
    const id = (page.body as { transfers: { transfer_id: string }[] }).transfers[0]?.transfer_id ?? '';
    expect(
      (await http(stack().baseUrl, 'GET', `/v1/transfers/${id}`, { token: (await account(stack())).token }))
        .status,
    ).toBe(404);
  }, 90_000);

  it('funds test keys only and rejects a proof that does not match the balance', async () => {
    const alice = await account(stack());
    const live = await http(stack().baseUrl, 'POST', '/v1/sandbox/fund', {
      token: alice.api_keys.live.secret,
      body: { asset: 'USDC', amount: '1' },
    });
    expect(live).toMatchObject({ status: 403, body: { error: { code: 'test_mode_only' } } });
    await fund(stack(), alice, '2');
    expect(
      (await http(stack().baseUrl, 'GET', '/v1/accounts/me/balances', { token: alice.token })).body,
    ).toEqual({
      balances: [
        { asset: 'USDC', has_balance: true },
        { asset: 'SOL', has_balance: false },
      ],
    });
    const mallory = await account(stack());
    await fund(stack(), mallory, '3');
    const withCiphertext = await http(stack().baseUrl, 'GET', '/v1/accounts/me/balances?include=ciphertext', {
      token: mallory.token,
    });
    const entry = (withCiphertext.body as BalancesBody).balances[0];
    const foreignProof = createDecryptionProof(mallory.decryption_key, [
      { asset: 'USDC', ciphertext: entry?.ciphertext ?? '' },
    ]);
    const refused = await http(stack().baseUrl, 'GET', '/v1/accounts/me/balances', {
      token: alice.token,
      headers: { 'X-Decryption-Proof': foreignProof },
    });
    expect(refused).toMatchObject({ status: 422, body: { error: { code: 'decryption_proof_invalid' } } });
    const garbage = await http(
      stack().baseUrl,
      'GET',
      '/v1/accounts/me/balances?decryption_proof=bm90LWEtcHJvb2Y',
      { token: alice.token },
    );
    expect(garbage).toMatchObject({ status: 422, body: { error: { code: 'decryption_proof_invalid' } } });
  }, 60_000);
}
