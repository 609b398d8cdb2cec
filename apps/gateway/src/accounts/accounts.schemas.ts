import { Account } from '@cts/contracts';

export const AccountSchema = Account.meta({ id: 'Account', description: 'Spec §2.2' });
