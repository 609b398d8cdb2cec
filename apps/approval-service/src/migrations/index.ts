import { CreateApprovalsSchema1763700000000 } from './1763700000000-create-approvals-schema';
import { CreateAgentTransactions1764100000000 } from './1764100000000-create-agent-transactions';
import { IndexAgentTransactionsByAgent1764300000000 } from './1764300000000-index-agent-transactions-by-agent';
import { AddX402TermsToAgentTransactions1766000000000 } from './1766000000000-add-x402-terms-to-agent-transactions';
import { BackfillX402TermsOfEarlierHolds1766100000000 } from './1766100000000-backfill-x402-terms-of-earlier-holds';

/** In order of application. A new migration is appended here. */
export const migrations = [
  CreateApprovalsSchema1763700000000,
  CreateAgentTransactions1764100000000,
  IndexAgentTransactionsByAgent1764300000000,
  AddX402TermsToAgentTransactions1766000000000,
  BackfillX402TermsOfEarlierHolds1766100000000,
];
