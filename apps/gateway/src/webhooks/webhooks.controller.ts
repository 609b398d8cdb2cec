import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
} from '@nestjs/swagger';
import {
  type Account,
  DeleteWebhook,
  GetWebhook,
  ListWebhookDeliveries,
  ListWebhooks,
  ReplayWebhookEvent,
  SendTestWebhook,
  UpdateWebhook,
  type WebhookDelivery,
  type WebhookSubscription,
} from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { CurrentCaller } from '../http/caller.decorator';
import { ApiErrors, V1Controller } from '../http/endpoint.decorators';
import { type Caller } from '../http/request-context';
import { unwrap } from '../http/result';
import { OwnerAccount, OwnerKeysOnlyGuard } from './owner-keys-only.guard';
import {
  CreateWebhookBody,
  EventIdParam,
  ListDeliveriesQuery,
  UpdateWebhookBody,
  type WebhookDeliveryList,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookIdParam,
  WebhookListSchema,
  WebhookSchema,
  type WebhookWithSecret,
  WebhookWithSecretSchema,
} from './webhooks.schemas';
import { WebhooksService } from './webhooks.service';

/**
 * Spec §4.4. Every route is scoped to the calling key's account and environment, and refused to an
 * agent's key. The guard is listed above `V1Controller` so that it runs after the API key guard
 * (class decorators apply bottom-up, and guards run in the order they were added).
 */
@UseGuards(OwnerKeysOnlyGuard)
@ApiErrors([403, "forbidden: an agent's key (its owner's subscriptions receive the agent's events)"])
@V1Controller('webhooks', 'webhooks')
export class WebhooksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly webhooks: WebhooksService,
  ) {}

  private scope(caller: Caller) {
    return { account_id: caller.principal.account_id, environment: caller.principal.environment };
  }

  @Post()
  @ApiOperation({
    summary: 'Subscribe an HTTPS endpoint to events; the signing secret is in this response only',
  })
  @ApiCreatedResponse({
    description: 'The subscription with its secret',
    standardSchema: WebhookWithSecretSchema,
  })
  create(
    @CurrentCaller() caller: Caller,
    @Body({ schema: CreateWebhookBody }) body: CreateWebhookBody,
  ): Promise<WebhookWithSecret> {
    return this.webhooks.create(
      caller.principal.account_id,
      caller.principal.environment,
      body,
      caller.context,
    );
  }

  @Get()
  @ApiOperation({
    summary: "The account's webhook subscriptions in the key's environment (never their secrets)",
  })
  @ApiOkResponse({ description: 'Every live subscription', standardSchema: WebhookListSchema })
  async list(@CurrentCaller() caller: Caller) {
    return unwrap(await this.commands.send(ListWebhooks, this.scope(caller), caller.context));
  }

  @Get(':webhook_id')
  @ApiOperation({ summary: 'One subscription: its URL, events, and whether (and why) it is disabled' })
  @ApiOkResponse({ description: 'The subscription', standardSchema: WebhookSchema })
  @ApiErrors([404, 'webhook_not_found'])
  async get(
    @CurrentCaller() caller: Caller,
    @Param('webhook_id', { schema: WebhookIdParam }) webhookId: string,
  ): Promise<WebhookSubscription> {
    return unwrap(
      await this.commands.send(GetWebhook, { ...this.scope(caller), webhook_id: webhookId }, caller.context),
    );
  }

  @Patch(':webhook_id')
  @ApiOperation({
    summary:
      'Change the URL (checked as on create), the event types, or disable/enable: a disabled endpoint gets no attempts; its deliveries wait and resume when enabled, within the 24 h retry window',
  })
  @ApiOkResponse({ description: 'The updated subscription', standardSchema: WebhookSchema })
  @ApiErrors([404, 'webhook_not_found'])
  async update(
    @CurrentCaller() caller: Caller,
    @Param('webhook_id', { schema: WebhookIdParam }) webhookId: string,
    @Body({ schema: UpdateWebhookBody }) body: UpdateWebhookBody,
  ): Promise<WebhookSubscription> {
    return unwrap(
      await this.commands.send(
        UpdateWebhook,
        { ...this.scope(caller), webhook_id: webhookId, ...body },
        caller.context,
      ),
    );
  }

  @Post(':webhook_id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'A new signing secret, shown in this response only; for 24 hours deliveries carry a signature with each secret (X-Service-Signature with the new one), then only the new',
  })
  @ApiOkResponse({
    description: 'The subscription with its new secret',
    standardSchema: WebhookWithSecretSchema,
  })
  @ApiErrors([404, 'webhook_not_found'])
  rotateSecret(
    @CurrentCaller() caller: Caller,
    @Param('webhook_id', { schema: WebhookIdParam }) webhookId: string,
  ): Promise<WebhookWithSecret> {
    return this.webhooks.rotateSecret(
      caller.principal.account_id,
      caller.principal.environment,
      webhookId,
      caller.context,
    );
  }

  @Post(':webhook_id/test')
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Deliver a `webhook.test` event to this endpoint now (whatever its event types, also when disabled)',
  })
  @ApiAcceptedResponse({
    description: 'The test delivery, attempted at once',
    standardSchema: WebhookDeliverySchema,
  })
  @ApiErrors([404, 'webhook_not_found'])
  async sendTest(
    @CurrentCaller() caller: Caller,
    @OwnerAccount() account: Account,
    @Param('webhook_id', { schema: WebhookIdParam }) webhookId: string,
  ): Promise<WebhookDelivery> {
    return unwrap(
      await this.commands.send(
        SendTestWebhook,
        { ...this.scope(caller), webhook_id: webhookId, account_handle: account.handle },
        caller.context,
      ),
    );
  }

  @Delete(':webhook_id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a subscription: no delivery of it is attempted from now on, retries included',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors([404, 'webhook_not_found'])
  async delete(
    @CurrentCaller() caller: Caller,
    @Param('webhook_id', { schema: WebhookIdParam }) webhookId: string,
  ): Promise<void> {
    unwrap(
      await this.commands.send(
        DeleteWebhook,
        { ...this.scope(caller), webhook_id: webhookId },
        caller.context,
      ),
    );
  }

  @Get(':webhook_id/deliveries')
  @ApiOperation({
    summary:
      "A subscription's deliveries, newest first, paginated: each with its attempts (status code or network error, duration), retry count, next attempt and final state",
  })
  @ApiOkResponse({ description: 'The delivery log', standardSchema: WebhookDeliveryListSchema })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: 'Deliveries to return, newest first',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  })
  @ApiQuery({
    name: 'offset',
    required: false,
    description: 'Deliveries to skip, newest first',
    schema: { type: 'integer', minimum: 0, default: 0 },
  })
  @ApiErrors([404, 'webhook_not_found'])
  async deliveries(
    @CurrentCaller() caller: Caller,
    @Param('webhook_id', { schema: WebhookIdParam }) webhookId: string,
    @Query({ schema: ListDeliveriesQuery }) query: ListDeliveriesQuery,
  ): Promise<WebhookDeliveryList> {
    const { limit, offset } = query;
    const page = unwrap(
      await this.commands.send(
        ListWebhookDeliveries,
        { ...this.scope(caller), webhook_id: webhookId, limit, offset },
        caller.context,
      ),
    );
    return { deliveries: page.deliveries, limit, offset, has_more: page.has_more };
  }

  @Post(':webhook_id/replay/:event_id')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Deliver a stored event (last 30 days) to this subscription again, as a new delivery',
  })
  @ApiAcceptedResponse({
    description: 'The new delivery, attempted at once',
    standardSchema: WebhookDeliverySchema,
  })
  @ApiErrors([404, 'webhook_not_found, event_not_found'])
  async replay(
    @CurrentCaller() caller: Caller,
    @Param('webhook_id', { schema: WebhookIdParam }) webhookId: string,
    @Param('event_id', { schema: EventIdParam }) eventId: string,
  ): Promise<WebhookDelivery> {
    return unwrap(
      await this.commands.send(
        ReplayWebhookEvent,
        { ...this.scope(caller), webhook_id: webhookId, event_id: eventId },
        caller.context,
      ),
    );
  }
}
