import { CreateWebhooksSchema1763700000000 } from './1763700000000-create-webhooks-schema';
import { CreateWebhookTables1763800000000 } from './1763800000000-create-webhook-tables';
import { WebhookEndpointLimitsAndLog1764200000000 } from './1764200000000-webhook-endpoint-limits-and-log';
import { WebhookAttemptsWithoutLeases1764300000000 } from './1764300000000-webhook-attempts-without-leases';
import { WebhookDueIndexByNextAttempt1764400000000 } from './1764400000000-webhook-due-index-by-next-attempt';
import { WebhookManagementAndEventsApi1764500000000 } from './1764500000000-webhook-management-and-events-api';
import { EventsCreatedAtOfTheirSubject1764600000000 } from './1764600000000-events-created-at-of-their-subject';

/** In order of application. A new migration is appended here. */
export const migrations = [
  CreateWebhooksSchema1763700000000,
  CreateWebhookTables1763800000000,
  WebhookEndpointLimitsAndLog1764200000000,
  WebhookAttemptsWithoutLeases1764300000000,
  WebhookDueIndexByNextAttempt1764400000000,
  WebhookManagementAndEventsApi1764500000000,
  EventsCreatedAtOfTheirSubject1764600000000,
];
