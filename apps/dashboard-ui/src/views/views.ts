import { type ViewDefinition } from '../app/view';
import { agentsView } from './agents.view';
import { apiKeysView } from './api-keys.view';
import { approvalsView } from './approvals.view';
import { balancesView } from './balances.view';
import { eventsView } from './events.view';
import { transfersView } from './transfers.view';
import { webhooksView } from './webhooks.view';

/** `#/<name>` → screen. The navigation in index.html lists the same names. */
export const VIEWS: Readonly<Record<string, ViewDefinition>> = {
  approvals: approvalsView,
  agents: agentsView,
  transfers: transfersView,
  balances: balancesView,
  'api-keys': apiKeysView,
  webhooks: webhooksView,
  events: eventsView,
};

/** The first screen when nothing is waiting for approval. */
export const DEFAULT_VIEW = 'transfers';
