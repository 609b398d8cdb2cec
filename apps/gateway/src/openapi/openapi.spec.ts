import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOpenApiDocument } from './openapi.export';

const CHECKED_IN = join(__dirname, '../../../../docs/openapi.json');

describe('OpenAPI document', () => {
  it('matches the checked-in docs/openapi.json (run `npm run openapi` after changing an endpoint)', async () => {
    const generated = `${JSON.stringify(await createOpenApiDocument(), null, 2)}\n`;

    expect(readFileSync(CHECKED_IN, 'utf8')).toBe(generated);
  });

  it('documents every route of the gateway with its security and error shape', async () => {
    const document = await createOpenApiDocument();

    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/admin/v1/accounts',
        '/admin/v1/accounts/{account_id}',
        '/admin/v1/accounts/{account_id}/api-keys',
        '/admin/v1/accounts/{account_id}/domains',
        '/v1/accounts/me',
        '/v1/accounts/me/balances',
        '/v1/api-keys',
        '/v1/api-keys/{key_id}',
        '/v1/sandbox/fund',
        '/v1/transfers',
        '/v1/transfers/{transfer_id}',
      ]),
    );
    for (const path of Object.keys(document.paths)) {
      expect(path).toMatch(/^\/(admin\/)?v1\/|^\/docs/);
    }
    const create = document.paths['/v1/api-keys'].post;
    expect(create?.security).toEqual([{ api_key: [] }]);
    expect(create?.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]),
    );
    expect(create?.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateApiKeyRequest' } } },
    });
    expect(document.components?.schemas?.CreateApiKeyRequest).toMatchObject({
      additionalProperties: false,
      required: ['name'],
    });
    expect(document.paths['/admin/v1/accounts'].post?.security).toEqual([{ admin_token: [] }]);
  });
});
