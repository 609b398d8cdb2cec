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
      const error = invalidRequest(result.issues[0], metadata);
      const code = errorCodeOnPath(schema, pathOf(result.issues[0] ?? { message: '' }));
      throw code ? new DomainError(code, error.message, error.details) : error;
    }
    return result.value;
  }
}

function invalidRequest(issue: Issue | undefined, metadata: ArgumentMetadata): DomainError {
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

/** The innermost `x-error-code` meta of the zod schemas along `path`, if any. */
function errorCodeOnPath(schema: unknown, path: string[]): ErrorCode | undefined {
  let code: ErrorCode | undefined;
  let current: unknown = schema;
  for (const key of [undefined, ...path]) {
    if (key !== undefined) {
      current = current instanceof z.ZodObject ? (current.shape as Record<string, unknown>)[key] : undefined;
    }
    current = unwrap(current);
    const meta = current instanceof z.ZodType ? current.meta() : undefined;
    const found = meta?.['x-error-code'];
    code = typeof found === 'string' ? (found as ErrorCode) : code;
    if (current === undefined) {
      break;
    }
  }
  return code;
}

function unwrap(schema: unknown): unknown {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault) {
    current = current.unwrap();
  }
  return current;
}
