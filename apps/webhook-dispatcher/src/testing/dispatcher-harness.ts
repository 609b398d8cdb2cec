import {
  CreateWebhook,
  type Envelope,
  type Environment,
  type EventContract,
  ListWebhookDeliveries,
  type MessageContext,
  type PayloadOf,
  type Result,
  type WebhookDelivery,
  type WebhookSubscriptionWithSecret,
} from '@cts/contracts';
import { type CommandBus, type InProcessBus } from '@cts/messaging';
import { type RunningApp } from '@cts/runtime';
import { decryptMemo, deriveElGamalPubkey, encodeBase64, generateElGamalSecret } from '@cts/crypto';
import { createTestDatabase, startServiceUnderTest, type TestDatabase } from '@cts/testing';
import { type LookupAddress } from 'node:dns';
import { type DataSource } from 'typeorm';
import { type WebhookDispatcherOptions } from '../dispatcher.settings';
import { start } from '../webhook-dispatcher';
import { eventEnvelope, publishEvent } from './event-factories';
import { HttpsReceiver, type TestCertificates } from '@cts/testing';

export const testContext: MessageContext = {
  correlationId: 'req_test',
  environment: 'test',
  accountId: null,
};

/** What the gateway does: a one-time key for the reply, then the secret decrypted from it. */
export async function createWebhook(
  commands: CommandBus,
  request: { account_id: string; environment: Environment; url: string; events: string[] },
): Promise<Result<WebhookSubscriptionWithSecret>> {
  const oneTimeSecret = generateElGamalSecret();
  const created = await commands.send(
    CreateWebhook,
    { ...request, recipient_key: encodeBase64(deriveElGamalPubkey(oneTimeSecret)) },
    testContext,
  );
  if (!created.ok) {
    return created;
  }
  const { encrypted_secret, ...webhook } = created.value;
  return { ok: true, value: { ...webhook, secret: decryptMemo(oneTimeSecret, encrypted_secret) } };
}

/** Host name → address, editable during a test (to play a DNS rebinding). */
export type TestDns = Map<string, string>;

export function testResolver(dns: TestDns) {
  return (host: string): Promise<LookupAddress[]> => {
    const address = dns.get(host);
    return address
      ? Promise.resolve([{ address, family: address.includes(':') ? 6 : 4 }])
      : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
  };
}

export interface DispatcherInstance {
  service: RunningApp;
  bus: InProcessBus;
  commands: CommandBus;
  dataSource: DataSource;
}

/**
 * One webhook-dispatcher on the in-process test runtime: private networks allowed (the receiver
 * is on 127.0.0.1), the test CA trusted through the client's constructor option, fast polling.
 */
export async function startDispatcher(
  db: TestDatabase,
  certificates: TestCertificates,
  dns: TestDns,
  env: Record<string, string> = {},
  options: WebhookDispatcherOptions = {},
): Promise<DispatcherInstance> {
  const running = await startServiceUnderTest(
    db,
    (runtime) =>
      start(runtime, {
        extraCa: certificates.ca,
        resolve: testResolver(dns),
        pollIntervalMs: 50,
        ...options,
      }),
    {
      env: {
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_RETRY_SCHEDULE: '1s,2s,4s',
        WEBHOOK_TIMEOUT_MS: '2000',
        ...env,
      },
    },
  );
  return {
    service: running.service,
    bus: running.bus,
    commands: running.commands,
    dataSource: running.dataSource,
  };
}

export class DispatcherHarness {
  private counter = 0;

  constructor(
    readonly db: TestDatabase,
    readonly receiver: HttpsReceiver,
    readonly instance: DispatcherInstance,
    readonly dns: TestDns,
  ) {}

  static async start(
    certificates: TestCertificates,
    env: Record<string, string> = {},
    options: WebhookDispatcherOptions = {},
  ) {
    const db = await createTestDatabase();
    const receiver = await new HttpsReceiver(certificates).start();
    const dns: TestDns = new Map([['receiver.test', '127.0.0.1']]);
    return new DispatcherHarness(
      db,
      receiver,
      await startDispatcher(db, certificates, dns, env, options),
      dns,
    );
  }

  get commands(): CommandBus {
    return this.instance.commands;
  }

  get dataSource(): DataSource {
    return this.instance.dataSource;
  }

  /** An account id and a receiver path no other test uses. */
  unique(name: string): { accountId: string; path: string } {
    this.counter++;
    return { accountId: `acct_${name}_${this.counter}`, path: `/${name}-${this.counter}` };
  }

  async subscribe(
    accountId: string,
    path: string,
    events: string[] = ['transfer.confirmed'],
    environment: Environment = 'test',
    host = '127.0.0.1',
  ): Promise<WebhookSubscriptionWithSecret> {
    const created = await createWebhook(this.commands, {
      account_id: accountId,
      environment,
      url: this.receiver.url(path, host),
      events,
    });
    if (!created.ok) {
      throw new Error(`subscribe failed: ${created.error.message}`);
    }
    return created.value;
  }

  /** A subscription to any URL (the SSRF rules apply, private networks allowed). */
  async subscribeUrl(
    accountId: string,
    url: string,
    events: string[] = ['transfer.confirmed'],
  ): Promise<WebhookSubscriptionWithSecret> {
    const created = await createWebhook(this.commands, {
      account_id: accountId,
      environment: 'test',
      url,
      events,
    });
    if (!created.ok) {
      throw new Error(`subscribe failed: ${created.error.message}`);
    }
    return created.value;
  }

  publish<E extends EventContract>(
    contract: E,
    payload: PayloadOf<E>,
    environment: Environment = 'test',
  ): Envelope<PayloadOf<E>> {
    const envelope = eventEnvelope(contract, payload, environment);
    publishEvent(this.instance.bus, contract, envelope);
    return envelope;
  }

  async deliveries(accountId: string, webhookId: string, limit?: number): Promise<WebhookDelivery[]> {
    return (await this.deliveryPage(accountId, webhookId, limit === undefined ? {} : { limit })).deliveries;
  }

  /** One page of the delivery log, as the gateway would ask for it. */
  async deliveryPage(
    accountId: string,
    webhookId: string,
    page: { limit?: number; offset?: number } = {},
  ): Promise<{ deliveries: WebhookDelivery[]; has_more: boolean }> {
    const listed = await this.commands.send(
      ListWebhookDeliveries,
      { account_id: accountId, environment: 'test', webhook_id: webhookId, ...page },
      testContext,
    );
    if (!listed.ok) {
      throw new Error(`listing deliveries failed: ${listed.error.message}`);
    }
    return listed.value;
  }

  async close(): Promise<void> {
    await this.instance.service.close();
    await this.receiver.close();
    await this.db.drop();
  }
}
