import { type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type NestExpressApplication } from '@nestjs/platform-express';
import { commandTopicOf, createEnvelope } from '@cts/contracts';
import { HandlerRegistrar } from '@cts/messaging';
import { type AddressInfo } from 'node:net';
import { InternalQueryController } from './internal-query.controller';
import { RUNTIME, SERVICE_NAME } from './runtime.tokens';

const TOKEN = 'itk_0123456789abcdefghijklmnopqrstuv';
const context = { correlationId: 'req_q', environment: 'test' as const, accountId: 'acct_1' };
const query = JSON.stringify(createEnvelope('account.get', 1, { account_id: 'acct_1' }, context));

/** account-service's internal port with a stand-in handler for its reads, and INTERNAL_TOKEN as given. */
async function internalPort(
  internalToken: string | undefined,
): Promise<{ app: INestApplication; url: string }> {
  const answered = { type: 'account.get.reply', payload: { account_id: 'acct_1' } };
  const registrar = {
    commandDispatchers: () => new Map([[commandTopicOf('account.get'), () => Promise.resolve(answered)]]),
  };
  @Module({
    controllers: [InternalQueryController],
    providers: [
      { provide: RUNTIME, useValue: { config: { INTERNAL_TOKEN: internalToken } } },
      { provide: SERVICE_NAME, useValue: 'account-service' },
      { provide: HandlerRegistrar, useValue: registrar },
    ],
  })
  class InternalPortModule {}
  const app = await NestFactory.create<NestExpressApplication>(InternalPortModule, {
    logger: false,
    abortOnError: false,
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}/internal/v1/queries` };
}

const post = (url: string, authorization?: string) =>
  fetch(url, {
    method: 'POST',
    body: query,
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
  });

describe('the direct query path (InternalQueryController) with INTERNAL_TOKEN set', () => {
  let port: { app: INestApplication; url: string };
  beforeAll(async () => {
    port = await internalPort(TOKEN);
  });
  afterAll(() => port.app.close());

  it('refuses a read without the token, or with another one, with 401', async () => {
    expect((await post(port.url)).status).toBe(401);
    expect((await post(port.url, `Bearer ${TOKEN.slice(0, -1)}x`)).status).toBe(401);
    expect((await post(port.url, `Basic ${TOKEN}`)).status).toBe(401);
  });

  it('answers a read that carries it', async () => {
    const answer = await post(port.url, `Bearer ${TOKEN}`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ type: 'account.get.reply', payload: { account_id: 'acct_1' } });
  });
});

describe('the direct query path without INTERNAL_TOKEN', () => {
  let port: { app: INestApplication; url: string };
  beforeAll(async () => {
    port = await internalPort(undefined);
  });
  afterAll(() => port.app.close());

  it('answers any read, as before the token existed', async () => {
    expect((await post(port.url)).status).toBe(200);
  });
});
