import { NestFactory } from '@nestjs/core';
import { type OpenAPIObject } from '@nestjs/swagger';
import { InProcessBus, InProcessClient } from '@cts/messaging';
import { MemoryCacheStore } from '@cts/platform';
import pino from 'pino';
import { GatewayModule } from '../gateway.module';
import { buildOpenApiDocument } from './openapi.document';

/**
 * The OpenAPI document without any I/O: the real controllers over in-memory stand-ins (a memory
 * cache, a bus with no services), never listening. `tools/openapi.mjs` and the drift test use it.
 */
export async function createOpenApiDocument(): Promise<OpenAPIObject> {
  const module = GatewayModule.with({
    settings: {
      rateLimitPerMinute: 1,
      authFailuresPerMinute: 20,
      commandTimeoutMs: 1,
      apiKeyHashKey: 'openapi-document',
      dataSealingKey: () => '',
      adminToken: undefined,
      usageFlushIntervalMs: 60_000,
      idempotencyWaitMs: 0,
      now: Date.now,
    },
    logger: pino({ level: 'silent' }),
    cache: new MemoryCacheStore(),
    client: new InProcessClient(new InProcessBus()),
    probes: [],
  });
  const app = await NestFactory.create(module, { logger: false, abortOnError: false });
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}
