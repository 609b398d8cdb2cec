import { z } from 'zod';

/**
 * A whole number in a query string (`?limit=20`): digits only, parsed and range-checked, `fallback`
 * when absent. Documented as an OpenAPI integer with its bounds and default, which is what it means.
 */
export function QueryInteger(min: number, max: number, fallback: number) {
  return z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .default(fallback)
    .meta({ 'x-openapi': { type: 'integer', minimum: min, maximum: max, default: fallback } });
}
