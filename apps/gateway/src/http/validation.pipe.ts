import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { DomainError, type ErrorCode } from '@cts/contracts';
import { z } from 'zod';

type Schema = NonNullable<ArgumentMetadata['schema']>;
type Validated = Awaited<ReturnType<Schema['~standard']['validate']>>;
// Zod's issues carry `code` and, for unknown fields, `keys`, beyond the Standard Schema ones.
type Issue = NonNullable<Validated['issues']>[number] & { code?: unknown; keys?: unknown };

/**
 * Validates every parameter declared with a schema (`@Body({ schema })`, `@Query({ schema })`,
 * `@Param('id', { schema })`) and returns the parsed value. A failure is `400 invalid_request`
 * whose `param` names the first offending field (an unknown one included). A schema on the way to
 * that field whose meta has `x-error-code` (also in the OpenAPI document) answers with that code instead.
 */
@Injectable()
export class SchemaValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { schema } = metadata;
    if (!schema) {
      return value;
    }
    const result = await schema['~standard'].validate(value);
    if (result.issues) {
      const error = invalidRequest(result.issues[0], metadata, value);
      const owner = errorCodeOwner(schema, pathOf(result.issues[0] ?? { message: '' }));
      throw owner ? ownedError(owner, result.issues[0], error, metadata) : error;
    }
    return result.value;
  }
}

function invalidRequest(issue: Issue | undefined, metadata: ArgumentMetadata, value: unknown): DomainError {
  const where =
    metadata.type === 'query' ? 'query parameter' : metadata.type === 'param' ? 'path parameter' : 'field';
  if (!issue) {
    return new DomainError('invalid_request', 'The request is invalid');
  }
  const path = [
    ...(metadata.type === 'param' && typeof metadata.data === 'string' ? [metadata.data] : []),
    ...pathOf(issue),
  ];
  const unknown =
    issue.code === 'unrecognized_keys' && Array.isArray(issue.keys) ? issue.keys.map(String) : [];
  if (unknown.length > 0) {
    const param = [...path, unknown[0]].join('.');
    return new DomainError('invalid_request', `Unknown ${where} ${param}`, { param });
  }
  if (path.length === 0 && metadata.type === 'body' && value === undefined) {
    // Nothing was sent (a body of another Content-Type is refused before validation, saying so).
    return new DomainError(
      'invalid_request',
      'The request has no body: send a JSON object with Content-Type: application/json',
    );
  }
  if (path.length === 0) {
    const what = metadata.type === 'body' ? 'The request body must be a JSON object' : `Invalid ${where}s`;
    return new DomainError('invalid_request', `${what}: ${issue.message}`);
  }
  const param = path.join('.');
  return new DomainError('invalid_request', `Invalid ${where} ${param}: ${issue.message}`, { param });
}

function pathOf(issue: Issue): string[] {
  return (issue.path ?? []).map((segment) => String(typeof segment === 'object' ? segment.key : segment));
}

interface ErrorCodeOwner {
  code: ErrorCode;
  /** Where the schema carrying `x-error-code` sits in the request (empty: the whole of it). */
  at: string[];
}

/** The innermost schema along `path` whose meta has `x-error-code`, if any. */
function errorCodeOwner(schema: unknown, path: string[]): ErrorCodeOwner | undefined {
  let owner: ErrorCodeOwner | undefined;
  let current: unknown = schema;
  for (let depth = 0; depth <= path.length && current !== undefined; depth += 1) {
    if (depth > 0) {
      current =
        current instanceof z.ZodObject
          ? (current.shape as Record<string, unknown>)[path[depth - 1]]
          : undefined;
    }
    current = unwrap(current);
    const found = current instanceof z.ZodType ? current.meta()?.['x-error-code'] : undefined;
    owner = typeof found === 'string' ? { code: found as ErrorCode, at: path.slice(0, depth) } : owner;
  }
  return owner;
}

/** That schema's own error, worded from inside it: `spend_policy: daily_limit_usdc must not be negative`. */
function ownedError(
  owner: ErrorCodeOwner,
  issue: Issue | undefined,
  error: DomainError,
  metadata: ArgumentMetadata,
): DomainError {
  const param = error.details.param;
  if (!issue || param === undefined) {
    return new DomainError(owner.code, error.message, error.details);
  }
  const prefix = metadata.type === 'param' && typeof metadata.data === 'string' ? [metadata.data] : [];
  const inside = param
    .split('.')
    .slice(prefix.length + owner.at.length)
    .join('.');
  const unknown = issue.code === 'unrecognized_keys';
  const text = unknown ? `${inside} is not a known field` : `${inside} ${issue.message}`;
  const message = owner.at.length > 0 ? `${owner.at.join('.')}: ${text}` : text;
  return new DomainError(owner.code, message, { param });
}

function unwrap(schema: unknown): unknown {
  let current = schema;
  while (
    current instanceof z.ZodOptional ||
    current instanceof z.ZodNullable ||
    current instanceof z.ZodDefault
  ) {
    current = current.unwrap();
  }
  return current;
}
