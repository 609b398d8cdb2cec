import { type z } from 'zod';

/**
 * A schema derived from another, built once per source schema: zod compiles a schema on its first
 * parse, which costs more than the parse itself, and every message is parsed.
 */
export function builtOnce<R extends z.ZodType>(build: (source: z.ZodType) => R): (source: z.ZodType) => R {
  const built = new WeakMap<z.ZodType, R>();
  return (source) => {
    let schema = built.get(source);
    if (!schema) {
      schema = build(source);
      built.set(source, schema);
    }
    return schema;
  };
}
