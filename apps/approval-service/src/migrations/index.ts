import { CreateApprovalsSchema1763700000000 } from './1763700000000-create-approvals-schema';

/** In order of application. A new migration is appended here. */
export const migrations = [CreateApprovalsSchema1763700000000];
