import { CreateApprovalsSchema1763700000000 } from './1763700000000-create-approvals-schema';
import { CreateAgentTransactions1764100000000 } from './1764100000000-create-agent-transactions';
import { IndexAgentTransactionsByAgent1764300000000 } from './1764300000000-index-agent-transactions-by-agent';

/** In order of application. A new migration is appended here. */
export const migrations = [
  CreateApprovalsSchema1763700000000,
  CreateAgentTransactions1764100000000,
  IndexAgentTransactionsByAgent1764300000000,
];
