import { type StackUnderTest } from './foundation.behaviour';
import { http } from './http';
import { openApi, type Schema } from './openapi-document';
import { account, fund } from './transfers.behaviour';

const resolve = (schema: Schema | undefined): Schema | undefined =>
  schema?.$ref ? openApi.components.schemas[schema.$ref.split('/').pop() ?? ''] : schema;

/** The smallest body the schema's required fields describe: the base each malformed body varies. */
function minimalBody(schema: Schema | undefined): unknown {
  const s = resolve(schema);
  if (!s) return 'x';
  if (s.enum) return s.enum[0];
  if (s.anyOf ?? s.oneOf) return minimalBody((s.anyOf ?? s.oneOf)?.[0]);
  if (s.type === 'string') return s.format === 'uri' ? 'https://example.com/hook' : 'x';
  if (s.type === 'integer' || s.type === 'number') return 1;
  if (s.type === 'boolean') return true;
  if (s.type === 'array') return [minimalBody(s.items)];
  const body: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(s.properties ?? {})) {
    if (s.required?.includes(name)) body[name] = minimalBody(property);
  }
  return body;
}

const MALFORMED_VALUES: unknown[] = [
  null,
  7,
  '',
  '\u0000',
  'a\u0000b',
  '\u001b[31m',
  'x'.repeat(20_000),
  [],
  {},
  -1,
  '1e400',
  '\ud83d',
];
const MALFORMED_IDS = ['%00', 'a%0Ab', 'x'.repeat(65), '%E2%80%AE', '__proto__', '..'];
const MALFORMED_QUERY_VALUES = ['', '%00', 'a%1Bb', '-1', 'abc', '9'.repeat(30), 'x'.repeat(300)];
const MALFORMED_JSON = ['{', '[]', 'null', '"s"', '{"__proto__":{"admin":true}}'];

/**
 * Every operation of docs/openapi.json, on the caller's own resources where the path names one:
 * malformed path ids, query values, JSON and body fields (each field in turn) are answered with a
 * 4xx in the documented error shape, never a 5xx. A new route is covered as soon as it is documented.
 */
export function malformedInputBehaviour(stack: () => StackUnderTest): void {
  describe('malformed input, on every documented operation', () => {
    it('is a 4xx in the documented error shape, never a 5xx', async () => {
      const owner = await account(stack());
      await fund(stack(), owner, '5');
      const call = (method: string, path: string, body?: unknown, raw?: string) =>
        fetch(`${stack().baseUrl}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${path.startsWith('/admin') ? stack().adminToken : owner.token}`,
            'idempotency-key': crypto.randomUUID(),
            ...(body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
        });
      const created = async (path: string, body: unknown, field: string) => {
        const response = await http(stack().baseUrl, 'POST', path, { token: owner.token, body });
        return (response.body as Record<string, string | undefined> | undefined)?.[field];
      };
      const spendPolicy = { daily_limit_usdc: 10, per_transaction_limit_usdc: 1 };
      const ids: Record<string, string | undefined> = {
        account_id: await created(
          '/v1/accounts/me/agents',
          { name: 'fuzzed', spend_policy: spendPolicy },
          'account_id',
        ),
        key_id: await created('/v1/api-keys', { name: 'fuzzed' }, 'key_id'),
        transfer_id: await created(
          '/v1/transfers',
          { to: owner.account.handle, amount: '0.01' },
          'transfer_id',
        ),
      };

      const refused: string[] = [];
      let sent = 0;
      const expectDocumented = async (method: string, path: string, body?: unknown, raw?: string) => {
        sent += 1;
        const response = await call(method, path, body, raw);
        const text = await response.text();
        let error: { code?: unknown; message?: unknown } | undefined;
        try {
          error = (JSON.parse(text) as { error?: typeof error }).error;
        } catch {
          error = undefined;
        }
        const documented = typeof error?.code === 'string' && typeof error.message === 'string';
        if (response.status >= 500 || (response.status >= 400 && !documented)) {
          refused.push(
            `${method} ${path} ${raw ?? JSON.stringify(body) ?? ''}`.slice(0, 200) + ` → ${response.status}`,
          );
        }
      };

      for (const [template, operations] of Object.entries(openApi.paths)) {
        for (const [verb, operation] of Object.entries(operations)) {
          if (!['get', 'post', 'patch', 'delete'].includes(verb)) continue;
          const method = verb.toUpperCase();
          const withIds = (fallback?: string) =>
            template.replace(/\{([^}]+)\}/g, (_, name: string) => fallback ?? ids[name] ?? `${name}_unknown`);
          if (template.includes('{')) {
            for (const id of MALFORMED_IDS) await expectDocumented(method, withIds(id));
          }
          const path = withIds();
          for (const query of operation.parameters?.filter((p) => p.in === 'query') ?? []) {
            for (const value of MALFORMED_QUERY_VALUES)
              await expectDocumented(method, `${path}?${query.name}=${value}`);
          }
          const schema = resolve(operation.requestBody?.content?.['application/json']?.schema);
          if (!schema || method === 'DELETE') continue;
          for (const raw of MALFORMED_JSON) await expectDocumented(method, path, undefined, raw);
          const base = minimalBody(schema) as Record<string, unknown>;
          for (const field of Object.keys(schema.properties ?? {})) {
            for (const value of MALFORMED_VALUES)
              await expectDocumented(method, path, { ...base, [field]: value });
          }
        }
      }

      expect(refused).toEqual([]);
      // Every documented operation was reached (≈ 1,000 requests today), not an empty document.
      expect(sent).toBeGreaterThan(500);
    }, 300_000);
  });
}
