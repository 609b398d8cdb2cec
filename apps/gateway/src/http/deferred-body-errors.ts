import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { DomainError, isWellFormedText } from '@cts/contracts';
import { json, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { type Observable } from 'rxjs';
import { bodyProblem, type BodyProblem, MAX_BODY_DEPTH } from './body-problem';
import { RouteParamtypes, routeTakes } from './route-arguments';

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

/**
 * Runs after the guards, before anything reads the body: refuses the body `parseJsonBodies` could not
 * use, and a body of another Content-Type sent to a route that reads one (it was never parsed).
 */
@Injectable()
export class BodyErrorInterceptor implements NestInterceptor {
  constructor(private readonly adapter: HttpAdapterHost) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const error = bodyErrors.get(req);
    if (error !== undefined) {
      // The mapping Nest gives a body-parser error (400 for bad JSON, 413 for too large, …).
      throw error instanceof DomainError ? error : this.adapter.httpAdapter.mapException(error);
    }
    // `req.is` is null without a body (left to the route's schema) and false for another media type.
    // An empty body with no Content-Type (a bare POST, which clients send with Content-Length: 0)
    // is no body either.
    const contentType = req.headers['content-type'];
    const empty = contentType === undefined && req.headers['content-length'] === '0';
    if (
      req.body === undefined &&
      req.is('application/json') === false &&
      !empty &&
      routeTakes(context, RouteParamtypes.BODY)
    ) {
      throw notJson(contentType);
    }
    return next.handle();
  }
}

/** A plain media type (`text/plain`), as RFC 6838 spells one: only such a header is echoed back. */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/**
 * 400 `invalid_request`, as any body the route cannot read (415 is kept for a JSON body in a charset
 * or encoding the parser cannot decode): the message says what to send instead.
 */
function notJson(contentType: string | undefined): DomainError {
  const sent = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const what =
    contentType === undefined
      ? 'the request has a body but no Content-Type'
      : MEDIA_TYPE.test(sent)
        ? `not ${sent}`
        : 'not what the request sent';
  return new DomainError(
    'invalid_request',
    `Content-Type must be application/json, ${what}: send the body as a JSON object`,
  );
}
