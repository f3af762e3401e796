// The API's operations as one Express middleware with a table of compiled paths, instead of one router layer per
// operation. Express's router walks its layers one by one, and each layer tried builds a params object, closures and
// a dispatch of its own: on a small GET that was a sixth of the request's CPU and a fifth of what it allocated. The
// matching rules are Express's, as the app configures them: case-sensitive paths, an optional trailing slash,
// `:name` segments that are non-empty and percent-decoded, HEAD answered by GET.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Operation } from '@backbone/contracts';
import { HttpProblem } from './problems.js';

interface CompiledRoute {
  method: string;
  pattern: RegExp;
  paramNames: string[];
  handler: (req: Request, res: Response) => Promise<void>;
  operationId: string;
}

export interface OperationRoutes {
  /** Adds an operation; `path` uses Express's `:name` segments; `operationId` names it in the request metrics. */
  add(method: Operation['method'], path: string, handler: (req: Request, res: Response) => Promise<void>, operationId: string): void;
  /** The middleware that dispatches to the operations; a request matching none goes on to the next layer. */
  readonly middleware: RequestHandler;
}

const PARAM_SEGMENT = /^:([A-Za-z_][A-Za-z0-9_]*)$/;

function compilePath(path: string): { pattern: RegExp; paramNames: string[] } {
  const paramNames: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      const param = PARAM_SEGMENT.exec(segment);
      if (param) {
        paramNames.push(param[1]!);
        return '([^/]+)';
      }
      if (segment.includes(':') || segment.includes('*')) throw new Error(`unsupported path segment '${segment}' in ${path}`);
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { pattern: new RegExp(`^${source}/?$`), paramNames };
}

function decodeParam(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    throw new HttpProblem('invalid-request', 'The request could not be read.');
  }
}

export function createOperationRoutes(): OperationRoutes {
  const routes: CompiledRoute[] = [];

  const middleware = (req: Request, res: Response, next: NextFunction): void => {
    const url = req.url;
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    let allowed: string[] | null = null;
    for (const route of routes) {
      const match = route.pattern.exec(path);
      if (!match) continue;
      if (route.method !== method) {
        (allowed ??= []).push(route.method);
        continue;
      }
      req.operationId = route.operationId;
      let params: Record<string, string>;
      try {
        params = {};
        for (let i = 0; i < route.paramNames.length; i++) params[route.paramNames[i]!] = decodeParam(match[i + 1]!);
      } catch (error) {
        next(error);
        return;
      }
      req.params = params;
      route.handler(req, res).catch(next);
      return;
    }
    if (allowed && req.method === 'OPTIONS') {
      // What Express's router answers for a path it knows: the methods it takes.
      const methods = allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
      res.setHeader('Allow', [...new Set(methods)].join(', '));
      res.statusCode = 204;
      res.end();
      return;
    }
    next();
  };

  return {
    add(method, path, handler, operationId) {
      const route = { method: method.toUpperCase(), ...compilePath(path), handler, operationId };
      if (routes.some((r) => r.method === route.method && r.pattern.source === route.pattern.source)) throw new Error(`${route.method} ${path} is added twice`);
      routes.push(route);
    },
    middleware,
  };
}
