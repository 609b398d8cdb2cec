import { contextFrom, CreateAccount, createEnvelope, EnvelopeMeta, GetAccount, ok } from '@cts/contracts';
import { decodeBase64, encryptMemoFor } from '@cts/crypto';
import { deadlineExceeded } from '@cts/messaging';
import { connect } from 'node:net';
import request from 'supertest';
import {
  bearer,
  seedAccount,
  startTestGateway,
  TEST_ADMIN_TOKEN,
  type TestGateway,
} from '../testing/test-gateway';

describe('errors over HTTP', () => {
  let gateway: TestGateway;
  const logs: string[] = [];

  beforeAll(async () => {
    gateway = await startTestGateway({ logs: { write: (line: string) => void logs.push(line) } });
  });

  afterAll(async () => {
    await gateway.close();
  });

  it('answers an unknown route with 404 not_found in the error shape', async () => {
    const res = await request(gateway.url).get('/v1/nothing-here').expect(404);

    expect(res.body).toEqual({
      error: {
        code: 'not_found',
        message: 'No endpoint GET /v1/nothing-here',
        request_id: res.headers['x-request-id'],
      },
    });
  });

  it('answers a malformed JSON body with 400 invalid_request', async () => {
    const res = await request(gateway.url)
      .post('/admin/v1/accounts')
      .set(bearer(TEST_ADMIN_TOKEN))
      .set('Content-Type', 'application/json')
      .send('{"handle": "@alice",')
      .expect(400);

    expect(res.body.error).toEqual({
      code: 'invalid_request',
      message: 'The request body is not valid JSON',
      request_id: res.headers['x-request-id'],
    });
  });

  it('answers a body nested too deep with 400 invalid_request, with or without an Idempotency-Key', async () => {
    const deep = `{"handle":"@alice","type":"personal","memo":${'['.repeat(40_000)}${']'.repeat(40_000)}}`;
    for (const idempotencyKey of [undefined, 'deep-1']) {
      const post = request(gateway.url)
        .post('/admin/v1/accounts')
        .set(bearer(TEST_ADMIN_TOKEN))
        .set('Content-Type', 'application/json');
      if (idempotencyKey) {
        post.set('Idempotency-Key', idempotencyKey);
      }
      const res = await post.send(deep).expect(400);

      expect(res.body.error).toEqual({
        code: 'invalid_request',
        message: 'The request body nests deeper than 32 levels',
        request_id: res.headers['x-request-id'],
      });
    }
  });

  it('answers a lone surrogate anywhere in a body with 400 invalid_request naming the field', async () => {
    // JSON's \ud83d escape: a string no UTF-8 (nor PostgreSQL's JSON) can hold.
    const res = await request(gateway.url)
      .post('/admin/v1/accounts')
      .set(bearer(TEST_ADMIN_TOKEN))
      .set('Content-Type', 'application/json')
      .send('{"handle":"@alice","type":"personal","name":"wallet \\ud83d"}')
      .expect(400);

    expect(res.body.error).toEqual({
      code: 'invalid_request',
      message: 'The request body has a string that is not well-formed Unicode (a lone surrogate)',
      param: 'name',
      request_id: res.headers['x-request-id'],
    });
  });

  it('authenticates before it reads the body: without a valid key a bad body gets 401', async () => {
    const bodies = [
      '{"to": "@bob",',
      `{"memo":${'['.repeat(100)}${']'.repeat(100)}}`,
      `"${'x'.repeat(200_000)}"`,
    ];
    for (const body of bodies) {
      for (const auth of [{}, bearer('svc_test_not_a_real_key_000000000000')]) {
        const res = await request(gateway.url)
          .post('/v1/transfers')
          .set(auth)
          .set('Content-Type', 'application/json')
          .send(body)
          .expect(401);
        expect(res.body.error.code).toBe('unauthorized');
      }
    }
  });

  it('refuses a bad body after authentication: 400 when malformed, 413 when too large, 415 when undecodable', async () => {
    const carol = seedAccount(gateway.accounts, '@carol');
    const post = (body: string) =>
      request(gateway.url)
        .post('/v1/transfers')
        .set(bearer(carol.keys.test.secret))
        .set('Content-Type', 'application/json')
        .send(body);

    expect((await post('{"to": "@bob",').expect(400)).body.error).toMatchObject({
      code: 'invalid_request',
      message: 'The request body is not valid JSON',
    });
    expect((await post(`"${'x'.repeat(200_000)}"`).expect(413)).body.error.code).toBe('invalid_request');
    // docs/openapi.json promises these 415s on every operation with a body.
    const undecodable = await request(gateway.url)
      .post('/v1/transfers')
      .set(bearer(carol.keys.test.secret))
      .set('Content-Type', 'application/json; charset=latin1')
      .send('{}')
      .expect(415);
    expect(undecodable.body.error.code).toBe('invalid_request');
  });

  it('answers headers too large for Node with 431 in the error shape', async () => {
    const res = await fetch(`${gateway.url}/v1/transfers?x=${'a'.repeat(20_000)}`);

    expect(res.status).toBe(431);
    const body = (await res.json()) as { error: { code: string; request_id: string } };
    expect(body.error).toMatchObject({
      code: 'invalid_request',
      request_id: res.headers.get('x-request-id'),
    });
  });

  it('answers malformed HTTP with 400 in the error shape', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(gateway.url).port), '127.0.0.1', () =>
        socket.write('GARBAGE / HTTP/1.1\r\n\r\n'),
      );
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });

    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(answer.split('\r\n\r\n')[1]).error.code).toBe('invalid_request');
  });

  it('answers a body that is not JSON with 400 invalid_request', async () => {
    const res = await request(gateway.url)
      .post('/admin/v1/accounts')
      .set(bearer(TEST_ADMIN_TOKEN))
      .type('form')
      .send('handle=@alice&type=personal')
      .expect(400);

    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toBe(
      'Content-Type must be application/json, not application/x-www-form-urlencoded: send the body as a JSON object',
    );
  });

  it('answers an unexpected failure with a generic 500 and logs it under an error id', async () => {
    // A reply the gateway cannot use (no keys): an internal fault, not the client's.
    gateway.bus.registerCommand(CreateAccount.topic, (data) => {
      const { recipient_key } = (data as { payload: { recipient_key: string } }).payload;
      const decryptionKey = encryptMemoFor(decodeBase64(recipient_key) ?? new Uint8Array(), 'dk1_zed');
      return Promise.resolve(
        createEnvelope(
          'account.create.reply',
          1,
          ok({ account: accountOf(), api_keys: [], encrypted_decryption_key: decryptionKey, agent: null }),
          contextFrom(EnvelopeMeta.parse(data)),
        ),
      );
    });

    const res = await request(gateway.url)
      .post('/admin/v1/accounts')
      .set(bearer(TEST_ADMIN_TOKEN))
      .send({ handle: '@zed', type: 'personal' })
      .expect(500);

    const errorId = /error id ([0-9a-f-]{36})/.exec(res.body.error.message)?.[1];
    expect(res.body.error).toEqual({
      code: 'internal_error',
      message: `An internal error occurred (error id ${errorId})`,
      request_id: res.headers['x-request-id'],
    });
    expect(res.body.error.message).not.toContain('account-service');
    const logged = logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((entry) => entry.error_id === errorId);
    expect(logged).toMatchObject({
      level: 'error',
      request_id: res.headers['x-request-id'],
      err: { message: expect.stringContaining('account-service') },
    });
  });

  it('answers a service that does not reply with 503 service_unavailable', async () => {
    const alice = seedAccount(gateway.accounts, '@alice');
    await request(gateway.url).get('/v1/accounts/me').set(bearer(alice.keys.test.secret)).expect(200);
    gateway.bus.unregisterCommand('account.get');

    const res = await request(gateway.url)
      .get('/v1/accounts/me')
      .set(bearer(alice.keys.test.secret))
      .expect(503);

    expect(res.body.error.code).toBe('service_unavailable');
  });

  it("gives a command the gateway's timeout as its deadline, and answers one that ran out with 503", async () => {
    const bob = seedAccount(gateway.accounts, '@bob');
    const deadlines: unknown[] = [];
    gateway.bus.registerCommand(GetAccount.topic, (data) => {
      deadlines.push((data as { deadline_at?: unknown }).deadline_at);
      const reply = deadlineExceeded(GetAccount.topic, 'before account-service started it');
      return Promise.resolve(
        createEnvelope('account.get.reply', 1, reply, contextFrom(EnvelopeMeta.parse(data))),
      );
    });
    const before = Date.now();

    const res = await request(gateway.url)
      .get('/v1/accounts/me')
      .set(bearer(bob.keys.test.secret))
      .expect(503);

    expect(res.body.error).toMatchObject({ code: 'service_unavailable', reason: 'deadline_exceeded' });
    const [deadline] = deadlines;
    // The test gateway's COMMAND_TIMEOUT_MS is 2000.
    expect(deadline).toBeGreaterThanOrEqual(before + 2_000);
    expect(deadline).toBeLessThanOrEqual(Date.now() + 2_000);
  });
});

function accountOf() {
  return {
    account_id: 'acct_zed',
    handle: '@zed',
    type: 'personal' as const,
    public_key: null,
    kyc_status: 'unverified' as const,
    created_at: new Date().toISOString(),
  };
}
