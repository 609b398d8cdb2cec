import {
  type OpenAPIObject,
  type OperationObject,
  type ReferenceObject,
  type ResponseObject,
} from '@nestjs/swagger';

export interface CrossCuttingHeaders {
  requestIdHeader: string;
  idempotencyKeyHeader: string;
  replayedHeader: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const IDEMPOTENT_METHODS = new Set<string>(['post', 'patch']);
const ERROR_REF = { $ref: '#/components/schemas/Error' };

/**
 * What the gateway does for every route without per-route code (request ids, Idempotency-Key) is
 * documented the same way: here, from the routes, so a new endpoint is documented by itself.
 */
export function addCrossCuttingDocs(
  document: OpenAPIObject,
  headers: CrossCuttingHeaders,
  /** The JSON body limit as the body parser takes it (`100kb`). */
  bodyLimit: string,
): OpenAPIObject {
  document.components = {
    ...document.components,
    headers: {
      ...document.components?.headers,
      RequestId: {
        description: 'The id of this request, also in error bodies: quote it to support',
        schema: { type: 'string' },
      },
      RetryAfter: {
        description: 'Seconds to wait before retrying',
        schema: { type: 'integer', minimum: 0 },
      },
    },
  };
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) {
        continue;
      }
      assertNamedParameters(operation);
      if (operation.requestBody) {
        addBodyErrors(operation, bodyLimit);
      }
      if (IDEMPOTENT_METHODS.has(method) && operation.security?.length) {
        addIdempotency(operation, headers);
      }
      addRequestIdHeader(operation, headers.requestIdHeader);
      addRetryAfterHeader(operation);
    }
  }
  return document;
}

/**
 * Nest documents a `@Query({ schema })` object field by field only when the schema is inline: one
 * with `.meta({ id })` becomes a nameless parameter, which validators and client generators refuse.
 */
function assertNamedParameters(operation: OperationObject): void {
  for (const parameter of operation.parameters ?? []) {
    if (!('$ref' in parameter) && !parameter.name) {
      throw new Error(
        `${operation.operationId}: a ${parameter.in} parameter has no name — give its zod object schema no .meta({ id })`,
      );
    }
  }
}

function addRequestIdHeader(operation: OperationObject, header: string): void {
  for (const response of responsesOf(operation)) {
    response.headers = { [header]: { $ref: '#/components/headers/RequestId' }, ...response.headers };
  }
}

/** A rate limit (429) and an unavailable dependency (503) say when to come back. */
function addRetryAfterHeader(operation: OperationObject): void {
  for (const status of ['429', '503']) {
    const response = operation.responses[status];
    if (response && !isReference(response)) {
      response.headers = { ...response.headers, 'Retry-After': { $ref: '#/components/headers/RetryAfter' } };
    }
  }
}

/**
 * The body parser refuses a body before any route reads it (after authentication): too large is 413,
 * a charset or Content-Encoding it cannot decode is 415. Another Content-Type is not parsed at all:
 * 400 `invalid_request` saying the body must be application/json (the request body's only media type).
 */
function addBodyErrors(operation: OperationObject, bodyLimit: string): void {
  const refusals = {
    '413': `invalid_request: the body is larger than ${bodyLimit}`,
    '415':
      'invalid_request: a charset that is not UTF-8/16/32, or a Content-Encoding other than gzip, deflate or br',
  };
  for (const [status, description] of Object.entries(refusals)) {
    operation.responses[status] ??= { description, content: { 'application/json': { schema: ERROR_REF } } };
  }
}

function addIdempotency(operation: OperationObject, headers: CrossCuttingHeaders): void {
  operation.parameters = [
    ...(operation.parameters ?? []),
    {
      name: headers.idempotencyKeyHeader,
      in: 'header',
      required: false,
      description: 'Retry safely: the same key with the same request replays the first response for 24 h',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    },
  ];
  for (const [status, response] of Object.entries(operation.responses)) {
    if (status.startsWith('2') && response && !isReference(response)) {
      response.headers = {
        ...response.headers,
        [headers.replayedHeader]: {
          description: '`true` on a replayed response',
          schema: { type: 'string' },
        },
      };
    }
  }
  addError(operation, '409', 'idempotency_key_in_use');
  addError(operation, '422', 'idempotency_key_reused');
}

function addError(operation: OperationObject, status: string, code: string): void {
  const existing = operation.responses[status];
  if (existing && !isReference(existing)) {
    if (!existing.description.includes(code)) {
      existing.description = `${existing.description}, ${code}`;
    }
    return;
  }
  operation.responses[status] = { description: code, content: { 'application/json': { schema: ERROR_REF } } };
}

function responsesOf(operation: OperationObject): ResponseObject[] {
  return Object.values(operation.responses).filter(
    (r): r is ResponseObject => r !== undefined && !isReference(r),
  );
}

function isReference(value: ResponseObject | ReferenceObject): value is ReferenceObject {
  return '$ref' in value;
}
