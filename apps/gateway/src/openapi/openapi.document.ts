import { type INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { JSON_BODY_LIMIT } from '../http/deferred-body-errors';
import { ADMIN_SECURITY, API_KEY_SECURITY } from '../http/endpoint.decorators';
import { REQUEST_ID_HEADER } from '../http/request-id.middleware';
import { IDEMPOTENCY_KEY_HEADER, REPLAYED_HEADER } from '../idempotency/idempotency.domain';
import { addCrossCuttingDocs } from './openapi.cross-cutting';
import { zodToOpenApi } from './openapi.zod-converter';

export const DOCS_PATH = 'docs';

/** The gateway's OpenAPI document, from its controllers and their zod schemas. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Confidential Transfer Service API')
    .setDescription(
      'Confidential transfers, agent wallets under spend policies and signed webhooks. Errors have the shape ' +
        '`{"error": {code, message, request_id, param?, reason?}}`; every response carries `X-Request-Id`. ' +
        'A method a path does not support answers `405 method_not_allowed` with an `Allow` header.',
    )
    .setVersion('1')
    .addServer('/', 'The host serving this document (its /docs/openapi.json)')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'svc_live_… | svc_test_…', description: 'An API key' },
      API_KEY_SECURITY,
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: "The operators' ADMIN_TOKEN" },
      ADMIN_SECURITY,
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
    standardSchemaConverter: zodToOpenApi,
  });
  return addCrossCuttingDocs(
    document,
    {
      requestIdHeader: REQUEST_ID_HEADER,
      idempotencyKeyHeader: IDEMPOTENCY_KEY_HEADER,
      replayedHeader: REPLAYED_HEADER,
    },
    JSON_BODY_LIMIT,
  );
}

/** Swagger UI at `/docs`, the document at `/docs/openapi.json`. */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: `${DOCS_PATH}/openapi.json`,
    raw: ['json'],
  });
}
