import { DomainError } from '@cts/contracts';
import { type OpenAPIObject } from '@nestjs/swagger';
import { type NextFunction, type Request, type Response } from 'express';
import { knownErrorResponse } from './error-response';
import { requestIdOf } from './request-context';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface KnownPath {
  pattern: RegExp;
  methods: string[];
}

/** The documented paths, each as a pattern (`{id}` is one segment) with the methods it answers. */
export function knownPaths(document: OpenAPIObject): KnownPath[] {
  return Object.entries(document.paths).map(([path, item]) => {
    const segments = path.split(/{[^}]+}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
    const methods = METHODS.filter((method) => item[method]).map((method) => method.toUpperCase());
    return {
      pattern: new RegExp(`^${segments.join('[^/]+')}/?$`, 'i'),
      methods: methods.includes('GET') ? [...methods, 'HEAD'] : methods,
    };
  });
}

/** The methods a known path answers, or `undefined` for a path the API does not have. */
export function allowedMethods(paths: KnownPath[], path: string): string[] | undefined {
  const matching = paths.filter((known) => known.pattern.test(path));
  return matching.length === 0 ? undefined : [...new Set(matching.flatMap((known) => known.methods))];
}

/**
 * `405 method_not_allowed` with `Allow` for a method a documented path does not support (a `404`
 * would say the resource does not exist); unknown paths fall through to the router's `404`.
 */
export function methodNotAllowed(document: OpenAPIObject) {
  const paths = knownPaths(document);
  return (req: Request, res: Response, next: NextFunction): void => {
    const allowed = allowedMethods(paths, req.path);
    if (!allowed || allowed.includes(req.method)) {
      next();
      return;
    }
    const error = new DomainError(
      'method_not_allowed',
      `${req.method} is not supported on ${req.path}; use ${allowed.join(', ')}`,
    );
    const response = knownErrorResponse(error, requestIdOf(req));
    res.setHeader('Allow', allowed.join(', '));
    res.status(405).json(response?.body);
  };
}
