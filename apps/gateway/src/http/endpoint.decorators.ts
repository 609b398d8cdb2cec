import { applyDecorators, Controller, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminGuard } from '../admin/admin.guard';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { IdempotencyInterceptor } from '../idempotency/idempotency.interceptor';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { UndeclaredQueryInterceptor } from './undeclared-query.interceptor';
import { ErrorResponseSchema } from './error.schemas';

export const API_KEY_SECURITY = 'api_key';
export const ADMIN_SECURITY = 'admin_token';

/** Documents error statuses a route can answer with, in the shared error shape. */
export function ApiErrors(...errors: [status: number, codes: string][]) {
  return applyDecorators(
    ...errors.map(([status, codes]) =>
      ApiResponse({ status, description: codes, standardSchema: ErrorResponseSchema }),
    ),
  );
}

/**
 * A public `/v1/<path>` controller: API key authentication, per-key rate limit, refusing a query a
 * GET does not declare, and Idempotency-Key handling come with it, so a new endpoint is only its
 * handler method.
 */
export function V1Controller(path: string, tag: string) {
  return applyDecorators(
    Controller(`v1/${path}`),
    UseGuards(ApiKeyGuard, RateLimitGuard),
    UseInterceptors(UndeclaredQueryInterceptor, IdempotencyInterceptor),
    ApiTags(tag),
    ApiBearerAuth(API_KEY_SECURITY),
    ApiErrors(
      [400, 'invalid_request'],
      [401, 'unauthorized'],
      [429, 'rate_limited'],
      [503, 'service_unavailable'],
    ),
  );
}

/** An operator `/admin/v1/<path>` controller, guarded by the admin token. */
export function AdminController(path: string) {
  return applyDecorators(
    Controller(`admin/v1/${path}`),
    UseGuards(AdminGuard),
    UseInterceptors(IdempotencyInterceptor),
    ApiTags('admin'),
    ApiBearerAuth(ADMIN_SECURITY),
    ApiErrors([400, 'invalid_request'], [401, 'unauthorized'], [503, 'service_unavailable']),
  );
}
