import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { COMMAND_CLIENT, COMMAND_TIMEOUT_MS, CommandBus, type CommandClient } from '@cts/messaging';
import { CacheStore, READINESS_PROBES, type ReadinessProbe } from '@cts/platform';
import { type Logger } from 'pino';
import { AccountsController } from './accounts/accounts.controller';
import { AgentAccountsService } from './agents/agent-accounts.service';
import { AgentApiKeysController } from './agents/agent-api-keys.controller';
import { AgentsController, OwnAgentsController } from './agents/agents.controller';
import { BalancesController } from './balances/balances.controller';
import { SandboxController } from './sandbox/sandbox.controller';
import { AmountSealer } from './transfers/amount-sealer';
import { TransfersController } from './transfers/transfers.controller';
import { AdminAccountsController } from './admin/admin-accounts.controller';
import { AdminAccountsService } from './admin/admin-accounts.service';
import { AdminGuard } from './admin/admin.guard';
import { AgentHistoryController } from './approvals/agent-history.controller';
import { AgentTransactionsController } from './approvals/approvals.controller';
import { OwnSpendPolicyController } from './agents/own-policy.controller';
import { X402PaymentsController } from './agents/x402/x402-payments.controller';
import { DashboardController } from './dashboard/dashboard.controller';
import { ApiKeyUsage } from './api-keys/api-key-usage';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { ApiKeysService } from './api-keys/api-keys.service';
import { ApiKeyAuthenticator } from './auth/api-key-authenticator';
import { ApiKeyGuard } from './auth/api-key.guard';
import { ApiKeyHasher } from './auth/api-key-hasher';
import { PrincipalCache } from './auth/principal-cache';
import { GATEWAY_LOGGER, GATEWAY_SETTINGS, type GatewaySettings } from './gateway.settings';
import { HealthController } from './health/health.controller';
import { BodyErrorInterceptor } from './http/deferred-body-errors';
import { ErrorFilter } from './http/error.filter';
import { SchemaValidationPipe } from './http/validation.pipe';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { IdempotencyStore } from './idempotency/idempotency.store';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { AuthFailureThrottle } from './rate-limit/auth-failure-throttle';
import { RateLimiter } from './rate-limit/rate-limiter';
import { WebhooksController } from './webhooks/webhooks.controller';
import { EventsController } from './events/events.controller';
import { WebhooksService } from './webhooks/webhooks.service';

/** Every route of the gateway. A new feature's controller is one line here. */
export const GATEWAY_CONTROLLERS: Type[] = [
  HealthController,
  AccountsController,
  BalancesController,
  TransfersController,
  SandboxController,
  OwnAgentsController,
  AgentsController,
  AgentApiKeysController,
  ApiKeysController,
  AdminAccountsController,
  WebhooksController,
  EventsController,
  AgentTransactionsController,
  AgentHistoryController,
  OwnSpendPolicyController,
  X402PaymentsController,
  DashboardController,
];

/** What the gateway is built on; the OpenAPI document is built on in-memory stand-ins. */
export interface GatewayDependencies {
  settings: GatewaySettings;
  logger: Logger;
  cache: CacheStore;
  client: CommandClient;
  probes: ReadinessProbe[];
}

@Module({})
export class GatewayModule {
  static with(deps: GatewayDependencies): DynamicModule {
    return {
      module: GatewayModule,
      controllers: GATEWAY_CONTROLLERS,
      providers: [
        { provide: GATEWAY_SETTINGS, useValue: deps.settings },
        { provide: GATEWAY_LOGGER, useValue: deps.logger },
        { provide: CacheStore, useValue: deps.cache },
        { provide: COMMAND_CLIENT, useValue: deps.client },
        { provide: COMMAND_TIMEOUT_MS, useValue: deps.settings.commandTimeoutMs },
        { provide: READINESS_PROBES, useValue: deps.probes },
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_PIPE, useClass: SchemaValidationPipe },
        { provide: APP_INTERCEPTOR, useClass: BodyErrorInterceptor },
        CommandBus,
        ApiKeyHasher,
        PrincipalCache,
        ApiKeyAuthenticator,
        ApiKeyUsage,
        ApiKeysService,
        AdminAccountsService,
        AmountSealer,
        AgentAccountsService,
        WebhooksService,
        RateLimiter,
        AuthFailureThrottle,
        IdempotencyStore,
        ApiKeyGuard,
        RateLimitGuard,
        AdminGuard,
        IdempotencyInterceptor,
      ],
    };
  }
}
