import { CreateAccounts1763700000000 } from './1763700000000-create-accounts';
import { AccountAddresses1763800000000 } from './1763800000000-account-addresses';

/** In order of application. A new migration is appended here. */
export const migrations = [CreateAccounts1763700000000, AccountAddresses1763800000000];
