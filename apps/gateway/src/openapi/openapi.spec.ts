import SwaggerParser from '@apidevtools/swagger-parser';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type OpenAPIV3 } from 'openapi-types';
import { createOpenApiDocument } from './openapi.export';

const CHECKED_IN = join(__dirname, '../../../../docs/openapi.json');

describe('OpenAPI document', () => {
  it('matches the checked-in docs/openapi.json (run `npm run openapi` after changing an endpoint)', async () => {
    const generated = `${JSON.stringify(await createOpenApiDocument(), null, 2)}\n`;

    expect(readFileSync(CHECKED_IN, 'utf8')).toBe(generated);
  });

  it('is a valid OpenAPI 3.0 document (@apidevtools/swagger-parser: schema, $refs, parameters)', async () => {
    const checkedIn = JSON.parse(readFileSync(CHECKED_IN, 'utf8')) as OpenAPIV3.Document;

    await expect(SwaggerParser.validate(structuredClone(checkedIn))).resolves.toBeDefined();
  });

  it('names every parameter and answers every error status in the Error shape', async () => {
    const document = (await createOpenApiDocument()) as OpenAPIV3.Document;
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item ?? {}).map(([method, operation]) => ({
        path,
        method,
        operation: operation as OpenAPIV3.OperationObject,
      })),
    );

    expect(operations.length).toBeGreaterThan(20);
    for (const { path, method, operation } of operations) {
      const parameters = (operation.parameters ?? []) as OpenAPIV3.ParameterObject[];
      for (const parameter of parameters) {
        expect({ path, method, name: parameter.name }).toEqual({
          path,
          method,
          name: expect.stringMatching(/^[\w-]+$/),
        });
      }
      const pathNames = [...path.matchAll(/{(\w+)}/g)].map((match) => match[1]);
      expect(
        parameters
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .sort(),
      ).toEqual(pathNames.sort());
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) >= 400) {
          expect({ path, method, status, content: (response as OpenAPIV3.ResponseObject).content }).toEqual({
            path,
            method,
            status,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          });
        }
      }
    }
  });

  it('answers 413 and 415 in the Error shape on every operation that takes a body, and only there', async () => {
    const document = (await createOpenApiDocument()) as OpenAPIV3.Document;
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item ?? {}).map(([method, value]) => {
        const operation = value as OpenAPIV3.OperationObject;
        return {
          operation: `${method.toUpperCase()} ${path}`,
          takesBody: operation.requestBody !== undefined,
          responses: operation.responses,
        };
      }),
    );
    const withBody = operations.filter((o) => o.takesBody);

    expect(withBody.map((o) => o.operation)).toEqual(
      expect.arrayContaining([
        'POST /v1/transfers',
        'PATCH /v1/webhooks/{webhook_id}',
        'POST /admin/v1/accounts',
      ]),
    );
    for (const { operation, responses } of withBody) {
      expect({ operation, 413: responses['413'], 415: responses['415'] }).toEqual({
        operation,
        413: expect.objectContaining({
          description: 'invalid_request: the body is larger than 100kb',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        }) as unknown,
        415: expect.objectContaining({
          description: expect.stringMatching(/^invalid_request: a charset .* Content-Encoding/) as unknown,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        }) as unknown,
      });
    }
    const bodiless = operations.filter((o) => !o.takesBody && ('413' in o.responses || '415' in o.responses));
    expect(bodiless.map((o) => o.operation)).toEqual([]);
  });

  it('lists null in every nullable enum (OpenAPI 3.0 applies the enum to null too)', async () => {
    const nullableEnums: { enum: unknown[] }[] = [];
    const walk = (value: unknown): void => {
      if (value === null || typeof value !== 'object') {
        return;
      }
      const schema = value as Record<string, unknown>;
      if (schema.nullable === true && Array.isArray(schema.enum)) {
        nullableEnums.push(schema as { enum: unknown[] });
      }
      Object.values(schema).forEach(walk);
    };
    walk(await createOpenApiDocument());

    expect(nullableEnums.length).toBeGreaterThanOrEqual(3);
    expect(nullableEnums.filter((schema) => !schema.enum.includes(null))).toEqual([]);
  });

  it('carries the constraints the gateway validates with', async () => {
    const schemas = (await createOpenApiDocument()).components?.schemas ?? {};
    const transfer = schemas.CreateTransferRequest as OpenAPIV3.SchemaObject;
    const amount = transfer.properties?.amount as OpenAPIV3.SchemaObject;
    const policy = schemas.SpendPolicyInput as OpenAPIV3.SchemaObject;

    expect(transfer.required).toEqual(['to', 'amount']);
    for (const [value, valid] of [
      ['12.5', true],
      ['1', true],
      ['0.000001', true],
      ['', false],
      ['0', false],
      ['0.0', false],
      ['01', false],
      ['-1', false],
      ['1e3', false],
      ['.5', false],
    ] as const) {
      expect([value, new RegExp(amount.pattern ?? '$^').test(value)]).toEqual([value, valid]);
    }
    expect(policy).toMatchObject({
      required: ['daily_limit_usdc', 'per_transaction_limit_usdc'],
      additionalProperties: false,
      'x-error-code': 'invalid_policy',
    });
    expect(policy.properties?.approval_window_minutes).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 10_080,
    });
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
