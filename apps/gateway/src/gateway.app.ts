import { NestFactory } from '@nestjs/core';
import { type NestExpressApplication } from '@nestjs/platform-express';
import { type MetricsServer, PinoNestLogger, probesByName, startMetricsServer } from '@cts/platform';
import { INTERNAL_REPLY_PATH, replyUrlOf } from '@cts/messaging';
import { connectCommandTransport, type RunningApp, type Runtime, startAsService } from '@cts/runtime';
import { type AddressInfo } from 'node:net';
import { type Logger } from 'pino';
import { ApiKeyUsage } from './api-keys/api-key-usage';
import { GatewayModule } from './gateway.module';
import { gatewaySettings, type GatewayTuning } from './gateway.settings';
import { answerClientErrorsInTheErrorShape } from './http/client-errors';
import { trustProxySetting } from './http/trust-proxy';
import { JSON_BODY_LIMIT, parseJsonBodies } from './http/deferred-body-errors';
import { assignRequestId } from './http/request-id.middleware';
import { methodNotAllowed } from './http/method-not-allowed';
import { requestLogging } from './http/request-logging';
import { buildOpenApiDocument, serveOpenApi } from './openapi/openapi.document';
import { requestMetrics } from './http/request-metrics';
import { requestTracing } from './http/request-tracing';
import { securityHeaders } from './http/security-headers';

export interface GatewayOptions extends GatewayTuning {
  port?: number;
  /** Default METRICS_PORT; 0 picks a free port. */
  metricsPort?: number;
  host?: string;
}

/**
 * Starts the HTTP gateway on the runtime's transport (in-process bus or Kafka) and cache (memory or
 * Redis). Closing it stops taking requests, flushes the usage counters, then disconnects.
 */
export function startGateway(
  runtime: Runtime,
  options: GatewayOptions = {},
): Promise<RunningApp & { url: string; metricsUrl: string }> {
  const logger = runtime.logger('gateway');
  return startAsService(runtime, logger, () => startInScope(runtime, options, logger));
}

async function startInScope(
  runtime: Runtime,
  options: GatewayOptions,
  logger: Logger,
): Promise<RunningApp & { url: string; metricsUrl: string }> {
  const settings = gatewaySettings(runtime, logger, options);
  const cache = runtime.createCache();
  const transport = await connectCommandTransport(runtime);
  const probes = [
    { name: 'cache', check: () => cache.ping() },
    { name: 'broker', check: () => Promise.resolve(transport.isConnected()) },
    // The one-process mode: the services beside it in this process (their database, the ledger).
    ...probesByName(runtime.sharedProbes ?? []),
  ];
  let metrics: MetricsServer | undefined;
  try {
    metrics = await startMetricsServer(
      options.metricsPort ?? runtime.config.METRICS_PORT,
      options.host ?? '0.0.0.0',
      { [INTERNAL_REPLY_PATH]: (reply) => transport.receiveReply(reply) },
      runtime.config.INTERNAL_TOKEN,
    );
    if (runtime.config.REPLY_HOST) {
      transport.answerAt(replyUrlOf(runtime.config.REPLY_HOST, metrics.port));
    }
    const app = await NestFactory.create<NestExpressApplication>(
      GatewayModule.with({ settings, logger, cache, client: transport.client, probes }),
      { logger: new PinoNestLogger(logger), bodyParser: false, abortOnError: false },
    );
    app.disable('x-powered-by');
    app.set('trust proxy', trustProxySetting(runtime.config.TRUST_PROXY));
    app.use(assignRequestId);
    app.use(requestMetrics);
    app.use(requestTracing);
    app.use(securityHeaders);
    app.use(requestLogging(logger));
    // JSON only: another Content-Type is left unparsed, and refused (400) by a route that reads a body.
    app.use(parseJsonBodies(JSON_BODY_LIMIT));
    const document = buildOpenApiDocument(app);
    app.use(methodNotAllowed(document));
    serveOpenApi(app, document);
    answerClientErrorsInTheErrorShape(app.getHttpServer());
    await app.listen(options.port ?? runtime.config.PORT, options.host ?? '0.0.0.0');
    const usage = app.get(ApiKeyUsage);
    usage.start();
    const { port } = app.getHttpServer().address() as AddressInfo;
    return {
      name: 'gateway',
      app,
      url: `http://127.0.0.1:${port}`,
      metricsUrl: metrics.url,
      async close() {
        await app.close();
        await metrics?.close();
        await usage.stop();
        await transport.close();
        await cache.close();
      },
    };
  } catch (error) {
    await metrics?.close();
    await transport.close();
    await cache.close();
    throw error;
  }
}
