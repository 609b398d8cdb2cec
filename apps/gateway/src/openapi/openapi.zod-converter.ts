import { type StandardSchemaConversionResult } from '@nestjs/swagger';
import { z } from 'zod';

/**
 * Zod schemas to OpenAPI 3.0 through zod's own JSON Schema output, with one change: response
 * (`output`) objects stay open to new properties, so adding a field to a response never breaks a
 * generated client. Request objects keep `additionalProperties: false`: unknown fields are a 400.
 * A schema whose meta has `x-openapi` is documented as that instead (a query string's digits as the
 * integer they mean, see `QueryInteger`). A request field's default is stated in its description,
 * not as `default`: generators (openapi-typescript) would make such a field required in requests.
 */
export function zodToOpenApi(
  schema: unknown,
  options: { schemaType: 'input' | 'output' },
): StandardSchemaConversionResult | undefined {
  if (!(schema instanceof z.ZodType)) {
    return undefined;
  }
  const converted = schema['~standard'].jsonSchema[options.schemaType]({
    target: 'openapi-3.0',
    libraryOptions: { override: options.schemaType === 'input' ? documentRequest : documentAs },
  });
  const {
    definitions,
    $defs,
    $schema: _dialect,
    ...root
  } = withNullInNullableEnums(converted) as typeof converted;
  const open = options.schemaType === 'output' ? openObjects : (value: unknown) => value;
  const components = Object.entries({ ...asRecord(definitions), ...asRecord($defs) }).map(([name, def]) => [
    name,
    open(def),
  ]);
  return { schema: open(root), components: Object.fromEntries(components) as Record<string, object> };
}

type OverrideContext = { zodSchema: unknown; jsonSchema: Record<string, unknown> };

function documentRequest(ctx: OverrideContext): void {
  documentAs(ctx);
  const isReplaced = ctx.zodSchema instanceof z.ZodType && ctx.zodSchema.meta()?.['x-openapi'] !== undefined;
  if (!isReplaced && 'default' in ctx.jsonSchema) {
    const { default: fallback, description } = ctx.jsonSchema;
    delete ctx.jsonSchema.default;
    const stated = `Default: \`${JSON.stringify(fallback)}\`.`;
    ctx.jsonSchema.description = typeof description === 'string' ? `${description}. ${stated}` : stated;
  }
}

function documentAs(ctx: OverrideContext): void {
  const meta = ctx.zodSchema instanceof z.ZodType ? ctx.zodSchema.meta() : undefined;
  const replacement = meta?.['x-openapi'];
  if (replacement !== null && typeof replacement === 'object') {
    for (const key of Object.keys(ctx.jsonSchema)) {
      delete ctx.jsonSchema[key];
    }
    Object.assign(ctx.jsonSchema, replacement);
  }
}

function openObjects(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(openObjects);
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  const entries = Object.entries(value).filter(
    ([key, v]) => !(key === 'additionalProperties' && v === false),
  );
  return Object.fromEntries(entries.map(([key, v]) => [key, openObjects(v)]));
}

/**
 * OpenAPI 3.0 applies `enum` to `null` too (`nullable` does not lift it), so a nullable enum must
 * list `null`, or strict validators refuse every response where the field is null.
 */
function withNullInNullableEnums(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(withNullInNullableEnums);
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  const entries = Object.entries(value).map(([key, v]) => [key, withNullInNullableEnums(v)] as const);
  const schema = Object.fromEntries(entries) as Record<string, unknown>;
  const values: unknown = schema.enum;
  if (schema.nullable === true && Array.isArray(values) && !values.includes(null)) {
    schema.enum = [...(values as unknown[]), null];
  }
  return schema;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}
