/**
 * Every Kafka topic the system uses, with its partition count.
 * WARNING: topic names are a public contract (internal teams consume the event topics) and keys of
 * stored offsets: never rename one without a migration plan. Partitions only ever grow.
 */
export const EventTopics = {
  account: 'account.events',
  transfer: 'transfer.events',
  agent: 'agent.events',
  approval: 'approval.events',
} as const;

/**
 * Command types (`<service>.<verb>`): the envelope's `type`, not a topic of their own. A command
 * travels on its owning service's command topic (`commandTopicOf`).
 */
export const CommandTopics = {
  accountCreate: 'account.create',
  accountGet: 'account.get',
  accountSetKyc: 'account.set-kyc',
  accountAddDomain: 'account.add-domain',
  apiKeyCreate: 'api-key.create',
  apiKeyList: 'api-key.list',
  apiKeyRevoke: 'api-key.revoke',
  apiKeyAuthenticate: 'api-key.authenticate',
  apiKeyRecordUsage: 'api-key.record-usage',
  accountResolveRecipient: 'account.resolve-recipient',
  transferProvisionAccount: 'transfer.provision-account',
  transferCreate: 'transfer.create',
  transferGet: 'transfer.get',
  transferList: 'transfer.list',
  transferBalances: 'transfer.balances',
  transferFund: 'transfer.fund',
  transferKeyTotals: 'transfer.key-totals',
  transferX402Pay: 'transfer.x402-pay',
  transferX402Settled: 'transfer.x402-settled',
  agentCreate: 'agent.create',
  agentList: 'agent.list',
  agentGetPolicy: 'agent.get-policy',
  agentGetOwnPolicy: 'agent.get-own-policy',
  agentUpdatePolicy: 'agent.update-policy',
  agentEvaluate: 'agent.evaluate',
  agentReleaseReservation: 'agent.release-reservation',
  approvalHold: 'approval.hold',
  approvalListPending: 'approval.list-pending',
  approvalApprove: 'approval.approve',
  approvalReject: 'approval.reject',
  approvalGet: 'approval.get',
  approvalList: 'approval.list',
  webhookCreate: 'webhook.create',
  webhookList: 'webhook.list',
  webhookDelete: 'webhook.delete',
  webhookReplay: 'webhook.replay',
  webhookDeliveries: 'webhook.deliveries',
  webhookGet: 'webhook.get',
  webhookUpdate: 'webhook.update',
  webhookRotateSecret: 'webhook.rotate-secret',
  webhookSendTest: 'webhook.send-test',
  eventList: 'webhook.list-events',
  eventGet: 'webhook.get-event',
} as const;

export type CommandType = (typeof CommandTopics)[keyof typeof CommandTopics];

/** The services that consume commands: each has one command topic and one dead-letter topic. */
export const ServiceTopics = {
  'account-service': { commands: 'account.commands', prefixes: ['account', 'api-key'] },
  'transfer-service': { commands: 'transfer.commands', prefixes: ['transfer'] },
  'agent-policy-service': { commands: 'agent.commands', prefixes: ['agent'] },
  'approval-service': { commands: 'approval.commands', prefixes: ['approval'] },
  'webhook-dispatcher': { commands: 'webhook.commands', prefixes: ['webhook'] },
} as const;

export type ServiceName = keyof typeof ServiceTopics;

/** The apps that send commands: each has one reply topic, shared by its replicas in one group. */
export const CommandClients = ['gateway', 'account-service', 'transfer-service', 'approval-service'] as const;

/**
 * Commands that change nothing (reads). They need no ordering, so in the distributed mode they may
 * take the direct internal query path to their service (same envelope, same contract) when one is
 * configured, instead of two Kafka hops.
 */
export const QueryTypes: ReadonlySet<string> = new Set<CommandType>([
  'account.get',
  'account.resolve-recipient',
  'api-key.list',
  'api-key.authenticate',
  'transfer.get',
  'transfer.list',
  'transfer.balances',
  'transfer.key-totals',
  'agent.list',
  'agent.get-policy',
  'agent.get-own-policy',
  'approval.list-pending',
  'approval.get',
  'approval.list',
  'webhook.list',
  'webhook.deliveries',
  'webhook.get',
  'webhook.list-events',
  'webhook.get-event',
]);

/** The service that owns a command type (by its `<prefix>.` ), or undefined for an unknown type. */
export function serviceOf(type: string): ServiceName | undefined {
  const prefix = type.slice(0, type.indexOf('.'));
  const entry = Object.entries(ServiceTopics).find(([, topics]) =>
    (topics.prefixes as readonly string[]).includes(prefix),
  );
  return entry?.[0] as ServiceName | undefined;
}

/** The Kafka topic a command type travels on: its owning service's command topic. */
export function commandTopicOf(type: string): string {
  const service = serviceOf(type);
  if (!service) {
    throw new Error(`No service owns the command type ${type}`);
  }
  return ServiceTopics[service].commands;
}

export interface TopicSpec {
  name: string;
  partitions: number;
  /** Retention in ms; -1 keeps forever. */
  retentionMs: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export const DEFAULT_PARTITIONS = { command: 6, reply: 6, event: 12, deadLetter: 1 } as const;

/** The reply topic of a command client (`gateway.replies`). */
export const replyTopic = (client: string): string => `${client}.replies`;
/** The dead-letter topic of a consuming service (`webhook-dispatcher.dlq`). */
export const deadLetterTopic = (consumer: string): string => `${consumer}.dlq`;

/** The full list to provision: a command and a dead-letter topic per service, a reply topic per client, events. */
export function allTopicSpecs(partitions: Partial<typeof DEFAULT_PARTITIONS> = {}): TopicSpec[] {
  const p = { ...DEFAULT_PARTITIONS, ...partitions };
  const services = Object.entries(ServiceTopics);
  return [
    ...services.map(([, topics]) => ({ name: topics.commands, partitions: p.command, retentionMs: DAY_MS })),
    ...CommandClients.map((client) => ({
      name: replyTopic(client),
      partitions: p.reply,
      retentionMs: DAY_MS,
    })),
    ...Object.values(EventTopics).map((name) => ({ name, partitions: p.event, retentionMs: 7 * DAY_MS })),
    ...services.map(([service]) => ({
      name: deadLetterTopic(service),
      partitions: p.deadLetter,
      retentionMs: 14 * DAY_MS,
    })),
  ];
}

/**
 * Topics of the layout before one command topic per service (a command, a reply and a dead-letter
 * topic per command type, a dead-letter topic per event topic). Nothing reads or writes them any
 * more; an operator deletes them after the upgrade has drained (docs/operations.md).
 */
export function retiredTopics(): string[] {
  const types = Object.values(CommandTopics);
  return [
    ...types,
    ...types.map((t) => `${t}.reply`),
    ...[...types, ...Object.values(EventTopics)].map((t) => `${t}.dlq`),
  ];
}
