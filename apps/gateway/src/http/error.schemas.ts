import { ErrorCode } from '@cts/contracts';
import { z } from 'zod';

/** The body of every error response (ARCHITECTURE §6). */
export const ErrorResponseSchema = z
  .object({
    error: z.object({
      code: ErrorCode,
      message: z.string(),
      request_id: z.string(),
      param: z.string().optional().describe('The request field, query or path parameter at fault'),
      reason: z.string().optional().describe('A finer reason, e.g. which spend-policy rule was violated'),
    }),
  })
  .meta({ id: 'Error' });
