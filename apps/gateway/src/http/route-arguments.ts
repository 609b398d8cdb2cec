import { type ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';

export { RouteParamtypes };

/**
 * Whether the route's handler declares an argument of this kind (`@Body(…)`, `@Query(…)`), read
 * from Nest's route-argument metadata: what a route does not declare, it does not read.
 */
export function routeTakes(context: ExecutionContext, kind: RouteParamtypes): boolean {
  const args: unknown = Reflect.getMetadata(
    ROUTE_ARGS_METADATA,
    context.getClass(),
    context.getHandler().name,
  );
  return Object.keys(args ?? {}).some((key) => key.startsWith(`${kind}:`));
}
