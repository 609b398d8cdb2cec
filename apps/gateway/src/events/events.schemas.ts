import { EVENT_TYPES, EventResource } from '@cts/contracts';
import { z } from 'zod';
import { IdString, QueryInteger } from '../http/query.schemas';

export const EventSchema = EventResource.meta({
  id: 'Event',
  description:
    'An event of the account: exactly the payload its webhook deliveries carry (`event_id`, `event`, `account`, `timestamp`, then the fields of its type, docs/events.md), with `created_at`: that of the deliveries for `transfer.*` and `agent.created`, else when the service recorded it (what the list is ordered and filtered by). Never a plaintext amount of a confidential transfer',
});

export const EventListSchema = z
  .object({
    events: z.array(EventSchema).describe('Newest first'),
    has_more: z
      .boolean()
      .describe('More (older) events follow: ask again with `starting_after` = the last `event_id`'),
  })
  .meta({ id: 'EventList' });
export type EventList = z.infer<typeof EventListSchema>;

const EventTypeSchema = z.enum(EVENT_TYPES);

const Timestamp = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' });

export const ListEventsQuery = z
  .object({
    limit: QueryInteger(1, 100, 20),
    starting_after: IdString().optional(),
    type: z
      .union([EventTypeSchema, z.array(EventTypeSchema).max(50)])
      .transform((type) => (Array.isArray(type) ? type : [type]))
      .default([]),
    created_after: Timestamp.optional(),
    created_before: Timestamp.optional(),
  })
  .strict();
export type ListEventsQuery = z.infer<typeof ListEventsQuery>;

export const EventIdPathParam = IdString();
