import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { type Request } from 'express';
import { callerOf } from './request-context';

/** The authenticated caller of a `/v1` route (set by the API key guard). */
export const CurrentCaller = createParamDecorator((_data: unknown, ctx: ExecutionContext) =>
  callerOf(ctx.switchToHttp().getRequest<Request>()),
);
