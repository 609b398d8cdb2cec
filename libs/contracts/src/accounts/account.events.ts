import { z } from 'zod';
import { defineEvent } from '../contract';
import { EventTopics } from '../topics';
import { AccountType, KycStatus } from './account.schemas';

export const AccountCreated = defineEvent(
  EventTopics.account,
  'account.created',
  z.object({
    account_id: z.string(),
    handle: z.string(),
    type: AccountType,
    kyc_status: KycStatus,
    owner_account_id: z.string().nullable(),
    created_at: z.iso.datetime(),
  }),
);

export const AccountKycChanged = defineEvent(
  EventTopics.account,
  'account.kyc_changed',
  z.object({ account_id: z.string(), kyc_status: KycStatus, changed_at: z.iso.datetime() }),
);

export const ApiKeyRevoked = defineEvent(
  EventTopics.account,
  'api_key.revoked',
  z.object({ account_id: z.string(), key_id: z.string(), revoked_at: z.iso.datetime() }),
);
