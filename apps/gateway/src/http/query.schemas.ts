import { withoutControlCharacters } from '@cts/contracts';
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

/**
 * An identifier in a path or a query (`tr_…`, `wh_…`, a cursor): 1–64 characters, none of them a
 * control character. No identifier has one, and PostgreSQL cannot even compare text with a NUL in
 * it: such an id is a bad request (400), not a lookup that fails.
 */
export function IdString() {
  return withoutControlCharacters(z.string().min(1).max(64));
}
