/** A Fetch `Headers`, or a plain object such as Node's `req.headers` (any letter case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function isHeaders(headers: WebhookHeaders): headers is Headers {
  return typeof (headers as Partial<Headers>).get === 'function';
}

/** One header's value, repeated values joined by a space; `undefined` when absent. */
export function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (isHeaders(headers)) {
    return headers.get(name) ?? undefined;
  }
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted && value !== undefined) {
      values.push(...(Array.isArray(value) ? value : [value]));
    }
  }
  return values.length === 0 ? undefined : values.join(' ');
}
