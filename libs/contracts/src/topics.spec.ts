import * as contracts from './index';
import { type CommandContract } from './contract';
import { allTopicSpecs, commandTopicOf, CommandTopics, QueryTypes, retiredTopics, serviceOf } from './topics';

const commands = (Object.values(contracts) as unknown[]).filter(
  (value): value is CommandContract =>
    typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'command',
);

describe('the topic map', () => {
  it('sends every command type on its owning service’s one command topic', () => {
    expect(commandTopicOf('transfer.create')).toBe('transfer.commands');
    expect(commandTopicOf('api-key.authenticate')).toBe('account.commands');
    expect(commandTopicOf('account.get')).toBe('account.commands');
    expect(serviceOf('webhook.replay')).toBe('webhook-dispatcher');
    expect(() => commandTopicOf('ledger.format')).toThrow('No service owns the command type ledger.format');
  });

  it.each(commands.map((c) => c.topic))('finds an owner for the command %s', (type) => {
    expect(Object.values(CommandTopics)).toContain(type);
    expect(serviceOf(type)).toBeDefined();
  });

  it('provisions 5 command, 4 reply, 4 event and 5 dead-letter topics instead of ~100', () => {
    const names = allTopicSpecs().map((t) => t.name);
    expect(names).toEqual([
      'account.commands',
      'transfer.commands',
      'agent.commands',
      'approval.commands',
      'webhook.commands',
      'gateway.replies',
      'account-service.replies',
      'transfer-service.replies',
      'approval-service.replies',
      'account.events',
      'transfer.events',
      'agent.events',
      'approval.events',
      'account-service.dlq',
      'transfer-service.dlq',
      'agent-policy-service.dlq',
      'approval-service.dlq',
      'webhook-dispatcher.dlq',
    ]);
    expect(names.filter((name) => retiredTopics().includes(name))).toEqual([]);
  });

  it('lists the retired per-command topics for operators to delete', () => {
    expect(retiredTopics()).toEqual(
      expect.arrayContaining([
        'transfer.create',
        'transfer.create.reply',
        'transfer.create.dlq',
        'transfer.events.dlq',
      ]),
    );
  });

  it('treats only reads as queries', () => {
    for (const type of QueryTypes) {
      expect(type).toMatch(
        /\.(get|list|balances|key-totals|authenticate|resolve-recipient|get-policy|get-own-policy|list-pending|deliveries|list-events|get-event)$/,
      );
    }
    expect(QueryTypes.has('transfer.create')).toBe(false);
    expect(QueryTypes.has('agent.evaluate')).toBe(false);
    expect(QueryTypes.has('webhook.rotate-secret')).toBe(false);
    expect(QueryTypes.has('webhook.send-test')).toBe(false);
  });
});
