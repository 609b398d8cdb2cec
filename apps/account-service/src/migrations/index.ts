import { CreateAccounts1763700000000 } from './1763700000000-create-accounts';

/** In order of application. A new migration is appended here. */
export const migrations = [CreateAccounts1763700000000];
