import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as contracts from './index';
import { type EventContract } from './contract';

const doc = readFileSync(join(__dirname, '../../../docs/events.md'), 'utf8');
const events = (Object.values(contracts) as unknown[]).filter(
  (value): value is EventContract =>
    typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'event',
);

describe('docs/events.md, the public topic contract', () => {
  it('finds every event contract', () => {
    expect(events.length).toBeGreaterThanOrEqual(13);
  });

  it.each(Object.values(contracts.EventTopics))('documents the topic %s', (topic) => {
    expect(doc).toContain(`\`${topic}\``);
  });

  it.each(events.map((event) => [event.type, event.topic]))('documents %s (on %s)', (type) => {
    expect(doc).toContain(`\`${type}\``);
  });

  it.each(contracts.WEBHOOK_EVENT_TYPES)('lists the webhook event type %s', (type) => {
    expect(doc).toContain(`\`${type}\``);
  });
});
