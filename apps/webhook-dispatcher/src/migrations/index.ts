import { CreateWebhooksSchema1763700000000 } from './1763700000000-create-webhooks-schema';

/** In order of application. A new migration is appended here. */
export const migrations = [CreateWebhooksSchema1763700000000];
