import { Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { EVENT_TYPES, type EventResource, GetEvent, ListEvents } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { CurrentCaller } from '../http/caller.decorator';
import { ApiErrors, V1Controller } from '../http/endpoint.decorators';
import { type Caller } from '../http/request-context';
import { unwrap } from '../http/result';
import {
  EventIdPathParam,
  type EventList,
  EventListSchema,
  EventSchema,
  ListEventsQuery,
} from './events.schemas';
import { afterBound, beforeBound } from '../http/time-bounds';

/**
 * The events API, for recovery: what the account's webhooks were (or would have been) sent, in the
 * key's environment, for 30 days. Every route is scoped to the calling key's account and environment.
 */
@V1Controller('events', 'events')
export class EventsController {
  constructor(private readonly commands: CommandBus) {}

  @Get()
  @ApiOperation({
    summary:
      "The account's events in the key's environment (last 30 days), newest first, with cursor pagination",
  })
  @ApiOkResponse({ description: 'A page of events', standardSchema: EventListSchema })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: 'Events to return',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  })
  @ApiQuery({
    name: 'starting_after',
    required: false,
    description:
      'The `event_id` of the last event of the previous page: the next (older) page starts after it',
    schema: { type: 'string', maxLength: 64 },
  })
  @ApiQuery({
    name: 'type',
    required: false,
    description: 'Only events of these types (repeat the parameter for several)',
    schema: { type: 'array', items: { type: 'string', enum: [...EVENT_TYPES] } },
    style: 'form',
    explode: true,
  })
  @ApiQuery({
    name: 'created_after',
    required: false,
    description: 'Only events recorded after this instant (ISO 8601)',
    schema: { type: 'string', format: 'date-time' },
  })
  @ApiQuery({
    name: 'created_before',
    required: false,
    description: 'Only events recorded before this instant (ISO 8601)',
    schema: { type: 'string', format: 'date-time' },
  })
  async list(
    @CurrentCaller() caller: Caller,
    @Query({ schema: ListEventsQuery }) query: ListEventsQuery,
  ): Promise<EventList> {
    return unwrap(
      await this.commands.send(
        ListEvents,
        {
          account_id: caller.principal.account_id,
          environment: caller.principal.environment,
          limit: query.limit,
          ...(query.starting_after === undefined ? {} : { starting_after: query.starting_after }),
          types: query.type,
          created_after: afterBound(query.created_after),
          created_before: beforeBound(query.created_before),
        },
        caller.context,
      ),
    );
  }

  @Get(':event_id')
  @ApiOperation({
    summary: 'One event: exactly the payload its webhook deliveries carry (same event_id), with created_at',
  })
  @ApiOkResponse({ description: 'The event', standardSchema: EventSchema })
  @ApiErrors([404, 'event_not_found'])
  async get(
    @CurrentCaller() caller: Caller,
    @Param('event_id', { schema: EventIdPathParam }) eventId: string,
  ): Promise<EventResource> {
    return unwrap(
      await this.commands.send(
        GetEvent,
        {
          account_id: caller.principal.account_id,
          environment: caller.principal.environment,
          event_id: eventId,
        },
        caller.context,
      ),
    );
  }
}
