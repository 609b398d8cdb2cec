import { z } from 'zod';
import { type EventContract } from './contract';
import { envelopeSchema } from './envelope';

/**
 * JSON Schema of each event's envelope (payload included), for internal teams that consume our
 * topics without TypeScript: `docs/schemas/<type>.v<version>.json`, generated and checked in.
 */
export function eventJsonSchemas(events: readonly EventContract[]): Record<string, unknown> {
  const files: Record<string, unknown> = {};
  for (const event of events) {
    const schema = envelopeSchema(event.payload).extend({
      type: z.literal(event.type),
      version: z.literal(event.version),
    });
    files[`${event.type}.v${event.version}.json`] = {
      $id: `https://cts.example/schemas/${event.type}.v${event.version}.json`,
      title: `${event.type} (topic ${event.topic}, version ${event.version})`,
      ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }),
    };
  }
  return files;
}

export function isEventContract(value: unknown): value is EventContract {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'event';
}
