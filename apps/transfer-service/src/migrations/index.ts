import { CreateTransfersSchema1763700000000 } from './1763700000000-create-transfers-schema';
import { CreateTransfers1763800000000 } from './1763800000000-create-transfers';
import { NamespacedIdempotencyKeys1764500000000 } from './1764500000000-namespaced-idempotency-keys';
import { CreateX402Payments1764900000000 } from './1764900000000-create-x402-payments';

/** In order of application. A new migration is appended here. */
export const migrations = [
  CreateTransfersSchema1763700000000,
  CreateTransfers1763800000000,
  NamespacedIdempotencyKeys1764500000000,
  CreateX402Payments1764900000000,
];
