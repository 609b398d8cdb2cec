import { SetMetadata } from '@nestjs/common';

export const IDEMPOTENCY_IDENTITY = 'cts:idempotency-identity';

/**
 * What of a route's body makes two requests "the same" for its Idempotency-Key: by default the whole
 * body. A route whose retries legitimately differ (a client's receipt time, a fresh quote of the same
 * price) names the part that identifies the operation. It sees the body before validation, so it
 * must accept any value without throwing.
 */
export type IdentifyRequest = (body: unknown) => unknown;

export const IdempotencyIdentity = (identify: IdentifyRequest) => SetMetadata(IDEMPOTENCY_IDENTITY, identify);
