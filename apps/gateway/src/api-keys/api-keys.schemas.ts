import { ApiKey, ApiKeyName, Environment } from '@cts/contracts';
import { z } from 'zod';
import { IdString } from '../http/query.schemas';

export const ApiKeySchema = ApiKey.meta({
  id: 'ApiKey',
  description: 'An API key; its secret is never shown again after creation',
});

export const ApiKeyWithSecretSchema = ApiKey.extend({
  secret: z
    .string()
    .describe('The key itself (`svc_live_…` / `svc_test_…`): shown once, in this response only'),
}).meta({ id: 'ApiKeyWithSecret' });
export type ApiKeyWithSecret = z.infer<typeof ApiKeyWithSecretSchema>;

export const ApiKeyWithUsageSchema = ApiKey.extend({
  encrypted_usdc_total: z
    .string()
    .nullable()
    .describe(
      'Total USDC transferred with this key, encrypted for the account: SDK decryptAmount opens it. Null before the first transfer.',
    ),
}).meta({ id: 'ApiKeyWithUsage' });
export type ApiKeyWithUsage = z.infer<typeof ApiKeyWithUsageSchema>;

export const ApiKeyListSchema = z
  .object({ api_keys: z.array(ApiKeyWithUsageSchema) })
  .meta({ id: 'ApiKeyList' });

export const CreateApiKeyBody = z
  .object({
    name: ApiKeyName,
    environment: Environment.optional().describe("Defaults to the calling key's environment"),
  })
  .strict()
  .meta({ id: 'CreateApiKeyRequest' });
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

export const KeyIdParam = IdString();
