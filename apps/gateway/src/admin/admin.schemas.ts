import { ApiKeyName, Domain, Environment, Handle, KycStatus } from '@cts/contracts';
import { z } from 'zod';
import { AccountSchema } from '../accounts/accounts.schemas';
import { ApiKeyWithSecretSchema } from '../api-keys/api-keys.schemas';
import { IdString } from '../http/query.schemas';

export const CreateAccountBody = z
  .object({
    handle: Handle,
    // Agent accounts belong to an owner and are created by it (POST /v1/accounts/me/agents).
    type: z.enum(['personal', 'business']),
    kyc_status: KycStatus.optional().describe('Default unverified'),
  })
  .strict()
  .meta({ id: 'AdminCreateAccountRequest' });
export type CreateAccountBody = z.infer<typeof CreateAccountBody>;

export const SetKycBody = z.object({ kyc_status: KycStatus }).strict().meta({ id: 'AdminSetKycRequest' });
export type SetKycBody = z.infer<typeof SetKycBody>;

export const CreateKeyBody = z
  .object({ name: ApiKeyName, environment: Environment })
  .strict()
  .meta({ id: 'AdminCreateApiKeyRequest' });
export type CreateKeyBody = z.infer<typeof CreateKeyBody>;

export const AddDomainBody = z.object({ domain: Domain }).strict().meta({ id: 'AdminAddDomainRequest' });
export type AddDomainBody = z.infer<typeof AddDomainBody>;

export const AccountIdParam = IdString();

export const CreatedAccountSchema = z
  .object({
    account: AccountSchema,
    decryption_key: z.string().meta({
      description:
        'Opens balances and amounts in every environment, client-side. Shown once; the service keeps only a sealed custody copy.',
    }),
    api_keys: z.object({ test: ApiKeyWithSecretSchema, live: ApiKeyWithSecretSchema }),
  })
  .meta({
    id: 'AdminCreatedAccount',
    description: 'The new account, its decryption key and one API key per environment; secrets shown once',
  });
export type CreatedAccount = z.infer<typeof CreatedAccountSchema>;

export const VerifiedDomainSchema = z
  .object({ account_id: z.string(), domain: z.string(), verified_at: z.iso.datetime() })
  .meta({ id: 'VerifiedDomain' });
