import { type z } from 'zod';

/** A request/reply command: its topic is its message pattern (`<service>.<verb>`). */
export interface CommandContract<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  kind: 'command';
  topic: string;
  version: number;
  request: Req;
  response: Res;
}

/** A domain event: published on its family's topic (`transfer.events`), told apart by `type`. */
export interface EventContract<P extends z.ZodType = z.ZodType> {
  kind: 'event';
  topic: string;
  type: string;
  version: number;
  payload: P;
}

export type RequestOf<C extends CommandContract> = z.infer<C['request']>;
export type ResponseOf<C extends CommandContract> = z.infer<C['response']>;
export type PayloadOf<E extends EventContract> = z.infer<E['payload']>;

export function defineCommand<Req extends z.ZodType, Res extends z.ZodType>(
  topic: string,
  request: Req,
  response: Res,
  version = 1,
): CommandContract<Req, Res> {
  return { kind: 'command', topic, version, request, response };
}

export function defineEvent<P extends z.ZodType>(
  topic: string,
  type: string,
  payload: P,
  version = 1,
): EventContract<P> {
  return { kind: 'event', topic, type, version, payload };
}
