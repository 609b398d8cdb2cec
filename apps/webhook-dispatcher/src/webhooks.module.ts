import { type DynamicModule, Module } from '@nestjs/common';
import { RUNTIME, type Runtime } from '@cts/runtime';
import { DeliveryAttempter } from './attempts/delivery-attempter';
import { DeliveryHandlers } from './deliveries/delivery.handlers';
import { DeliveryLogRepository } from './deliveries/delivery-log.repository';
import { DeliveryRepository } from './deliveries/delivery.repository';
import { DeliveryScheduler } from './attempts/delivery-scheduler';
import { WebhookHttpClient } from './attempts/webhook-http-client';
import {
  DISPATCHER_SETTINGS,
  dispatcherSettings,
  type DispatcherSettings,
  type WebhookDispatcherOptions,
} from './dispatcher.settings';
import { EventHandlers } from './events/event.handlers';
import { EventIngestion } from './events/event-ingestion';
import { EventRepository } from './events/event.repository';
import { EventRetention } from './events/event-retention';
import { DestinationGuard } from './ssrf/destination-guard';
import { SecretBox } from './subscriptions/secret-box';
import { SubscriptionHandlers } from './subscriptions/subscription.handlers';
import { SubscriptionManagementHandlers } from './subscriptions/subscription-management.handlers';
import { EndpointHealth } from './subscriptions/endpoint-health';
import { EventApiHandlers } from './events/event-api.handlers';
import { SubscriptionRepository } from './subscriptions/subscription.repository';

@Module({})
export class WebhooksModule {
  static with(options: WebhookDispatcherOptions = {}): DynamicModule {
    return {
      module: WebhooksModule,
      providers: [
        {
          provide: DISPATCHER_SETTINGS,
          inject: [RUNTIME],
          useFactory: (runtime: Runtime) => dispatcherSettings(runtime.config, options),
        },
        {
          provide: DestinationGuard,
          inject: [DISPATCHER_SETTINGS],
          useFactory: (settings: DispatcherSettings) =>
            new DestinationGuard(settings.resolve, settings.allowPrivateNetworks),
        },
        {
          provide: WebhookHttpClient,
          inject: [DISPATCHER_SETTINGS, DestinationGuard],
          useFactory: (settings: DispatcherSettings, guard: DestinationGuard) =>
            new WebhookHttpClient({
              timeoutMs: settings.timeoutMs,
              guard,
              connectionsPerEndpoint: settings.maxInFlightPerEndpoint,
              extraCa: settings.extraCa,
            }),
        },
        SecretBox,
        SubscriptionRepository,
        EventRepository,
        DeliveryRepository,
        DeliveryLogRepository,
        DeliveryAttempter,
        DeliveryScheduler,
        EventIngestion,
        EventRetention,
        EndpointHealth,
        SubscriptionHandlers,
        SubscriptionManagementHandlers,
        EventHandlers,
        EventApiHandlers,
        DeliveryHandlers,
      ],
    };
  }
}
