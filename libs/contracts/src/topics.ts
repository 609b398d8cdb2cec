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
  agentCreate: 'agent.create',
  agentList: 'agent.list',
  agentGetPolicy: 'agent.get-policy',
  agentUpdatePolicy: 'agent.update-policy',
  agentEvaluate: 'agent.evaluate',
  agentReleaseReservation: 'agent.release-reservation',
  approvalHold: 'approval.hold',
  approvalListPending: 'approval.list-pending',
  approvalApprove: 'approval.approve',
  approvalReject: 'approval.reject',
  webhookCreate: 'webhook.create',
  webhookList: 'webhook.list',
  webhookDelete: 'webhook.delete',
  webhookReplay: 'webhook.replay',
  webhookDeliveries: 'webhook.deliveries',
} as const;

export interface TopicSpec {
  name: string;
  partitions: number;
  /** Retention in ms; -1 keeps forever. */
  retentionMs: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export const DEFAULT_PARTITIONS = { command: 6, reply: 6, event: 12, deadLetter: 1 } as const;

export const replyTopic = (topic: string): string => `${topic}.reply`;
export const deadLetterTopic = (topic: string): string => `${topic}.dlq`;

/** The full list to provision: commands with their reply topics, events, and a DLQ for each consumed topic. */
export function allTopicSpecs(partitions: Partial<typeof DEFAULT_PARTITIONS> = {}): TopicSpec[] {
  const p = { ...DEFAULT_PARTITIONS, ...partitions };
  const commands = Object.values(CommandTopics);
  const events = Object.values(EventTopics);
  return [
    ...commands.map((name) => ({ name, partitions: p.command, retentionMs: DAY_MS })),
    ...commands.map((name) => ({ name: replyTopic(name), partitions: p.reply, retentionMs: DAY_MS })),
    ...events.map((name) => ({ name, partitions: p.event, retentionMs: 7 * DAY_MS })),
    ...[...commands, ...events].map((name) => ({ name: deadLetterTopic(name), partitions: p.deadLetter, retentionMs: 14 * DAY_MS })),
  ];
}
