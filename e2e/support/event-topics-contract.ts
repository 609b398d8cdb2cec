import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { z } from 'zod';

/** The public event topics of docs/events.md, with what each message is keyed by there. */
const KEY_OF_TOPIC: Record<string, (payload: Record<string, unknown>) => unknown> = {
  'account.events': (payload) => payload.account_id,
  'transfer.events': (payload) => payload.transfer_id,
  'agent.events': (payload) => (payload.agent as { account_id?: unknown } | undefined)?.account_id,
  'approval.events': (payload) => payload.transaction_id,
};

/** docs/events.md's table: the topic an event type is published on. */
function documentedTopic(type: string): string | undefined {
  if (['account.created', 'account.kyc_changed', 'api_key.revoked'].includes(type)) {
    return 'account.events';
  }
  if (type.startsWith('transfer.')) {
    return 'transfer.events';
  }
  if (type.startsWith('agent.transaction.')) {
    return 'approval.events';
  }
  return ['agent.created', 'agent.policy.updated', 'agent.x402.paid'].includes(type)
    ? 'agent.events'
    : undefined;
}

export interface TopicMessage {
  topic: string;
  key: string | null;
  value: string;
}

/**
 * Reads every message of the public event topics from the beginning, as an internal team's consumer
 * would, until `stop()`.
 */
export async function readEventTopics(brokers: string[]): Promise<{
  messages: TopicMessage[];
  stop(): Promise<void>;
}> {
  const kafka = new Kafka({ clientId: 'e2e-event-contract', brokers, logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `e2e-event-contract-${Date.now()}` });
  const messages: TopicMessage[] = [];
  await consumer.connect();
  await consumer.subscribe({ topics: Object.keys(KEY_OF_TOPIC), fromBeginning: true });
  await consumer.run({
    eachMessage: ({ topic, message }) =>
      Promise.resolve(
        void messages.push({
          topic,
          key: message.key?.toString() ?? null,
          value: message.value?.toString() ?? '',
        }),
      ),
  });
  return { messages, stop: () => consumer.disconnect() };
}

/** The published JSON Schemas (docs/schemas/<type>.v<version>.json), as a consumer without our code reads them. */
function publishedSchemas(): Map<string, z.ZodType> {
  const dir = join(__dirname, '../../docs/schemas');
  return new Map(
    readdirSync(dir).map((file) => [
      file,
      z.fromJSONSchema(JSON.parse(readFileSync(join(dir, file), 'utf8')) as z.core.JSONSchema.JSONSchema),
    ]),
  );
}

/**
 * What is wrong with each message by the topic contract: its published schema, the topic and key
 * docs/events.md give its type, and no amount in a confidential transfer's event. Empty when all hold.
 */
export function eventContractViolations(messages: readonly TopicMessage[]): string[] {
  const schemas = publishedSchemas();
  const violations: string[] = [];
  for (const message of messages) {
    const envelope = JSON.parse(message.value) as {
      type: string;
      version: number;
      payload: Record<string, unknown>;
    };
    const file = `${envelope.type}.v${envelope.version}.json`;
    const where = `${message.topic} ${file} (key ${String(message.key)})`;
    const schema = schemas.get(file);
    const parsed = schema?.safeParse(envelope);
    if (!schema) {
      violations.push(`${where}: no published schema`);
    } else if (parsed && !parsed.success) {
      violations.push(`${where}: ${z.prettifyError(parsed.error)}`);
    }
    if (documentedTopic(envelope.type) !== message.topic) {
      violations.push(`${where}: documented on ${String(documentedTopic(envelope.type))}`);
    }
    const key = KEY_OF_TOPIC[message.topic]?.(envelope.payload);
    if (message.key !== key) {
      violations.push(`${where}: keyed ${String(message.key)}, documented key ${String(key)}`);
    }
    if (envelope.payload.confidential === true && 'amount' in envelope.payload) {
      violations.push(`${where}: a confidential transfer's amount`);
    }
  }
  return violations;
}
