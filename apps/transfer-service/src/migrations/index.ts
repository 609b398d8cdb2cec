import { CreateTransfersSchema1763700000000 } from './1763700000000-create-transfers-schema';

/** In order of application. A new migration is appended here. */
export const migrations = [CreateTransfersSchema1763700000000];
