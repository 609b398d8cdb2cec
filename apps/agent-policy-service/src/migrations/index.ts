import { CreateAgentsSchema1763700000000 } from './1763700000000-create-agents-schema';

/** In order of application. A new migration is appended here. */
export const migrations = [CreateAgentsSchema1763700000000];
