import { z } from 'zod';

/** `svc_live_` keys act on mainnet, `svc_test_` keys on devnet (spec §5.4). */
export const Environment = z.enum(['live', 'test']);
export type Environment = z.infer<typeof Environment>;

export const ENVIRONMENTS: readonly Environment[] = Environment.options;
