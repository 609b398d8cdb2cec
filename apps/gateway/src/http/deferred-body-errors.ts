import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { DomainError, isWellFormedText } from '@cts/contracts';
import { json, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { type Observable } from 'rxjs';
import { bodyProblem, type BodyProblem, MAX_BODY_DEPTH } from './body-problem';

/** The largest JSON body the gateway reads; a larger one is refused with 413 (and documented so). */
export const JSON_BODY_LIMIT = '100kb';

/** Why a request's body could not be used, kept until the request is authenticated. */
const bodyErrors = new WeakMap<Request, unknown>();

/**
 * Parses JSON bodies up front, but a body that cannot be used (malformed, oversized, nested too
 * deep) is refused only after the guards: a request without a valid key gets 401 whatever its
 * body (spec §5), and says nothing about how the body would have been read.
 */
export function parseJsonBodies(limit: string): RequestHandler {
  const parse = json({ limit });
  return (req: Request, res: Response, next: NextFunction) =>
    parse(req, res, (error?: unknown) => {
      if (error) {
        bodyErrors.set(req, error);
        req.body = undefined;
      } else {
        const problem = bodyProblem(req.body, MAX_BODY_DEPTH);
        if (problem) {
          bodyErrors.set(req, bodyError(problem));
          req.body = undefined;
        }
      }
      next();
    });
}

function bodyError(problem: BodyProblem): DomainError {
  if (problem.kind === 'too_deep') {
    return new DomainError('invalid_request', `The request body nests deeper than ${MAX_BODY_DEPTH} levels`);
  }
  // A key with a lone surrogate would be echoed back in `param`: named only when it is a clean path.
  const param = problem.at !== '' && isWellFormedText(problem.at) ? { param: problem.at } : {};
  return new DomainError(
    'invalid_request',
    'The request body has a string that is not well-formed Unicode (a lone surrogate)',
    param,
  );
}

/** Runs after the guards, before anything reads the body: refuses the body `parseJsonBodies` could not use. */
@Injectable()
export class BodyErrorInterceptor implements NestInterceptor {
  constructor(private readonly adapter: HttpAdapterHost) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const error = bodyErrors.get(context.switchToHttp().getRequest<Request>());
    if (error !== undefined) {
      // The mapping Nest gives a body-parser error (400 for bad JSON, 413 for too large, …).
      throw error instanceof DomainError ? error : this.adapter.httpAdapter.mapException(error);
    }
    return next.handle();
  }
}
