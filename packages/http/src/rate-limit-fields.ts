// What a limited answer tells the client (the IETF draft's RateLimit-Policy and RateLimit fields), and the 429.
import type { Response } from 'express';
import type { RateLimitWindow } from './rate-limit-budgets.js';
import { HttpProblem } from './problems.js';

/** The one policy's name in the RateLimit-Policy and RateLimit fields. */
const POLICY = '"default"';

/** The RateLimit-Policy field of a window: `q` requests per `w` seconds. */
export function policyField(window: RateLimitWindow): string {
  return `${POLICY};q=${window.quota};w=${window.windowSeconds}`;
}

/** Sets the fields of an answer: `remaining` more requests now, all back in `resetSeconds`. */
export function setRateLimitFields(res: Response, policy: string, remaining: number, resetSeconds: number): void {
  res.setHeader('RateLimit-Policy', policy);
  res.setHeader('RateLimit', `${POLICY};r=${remaining};t=${resetSeconds}`);
}

/** The 429 problem of a key (or, for the public shop, a client address) that has spent its quota. */
export function rateLimited(window: RateLimitWindow, resetSeconds: number, who = 'This API key', kind = ''): HttpProblem {
  return new HttpProblem(
    'rate-limited',
    `${who} may make ${window.quota} ${kind}requests per ${window.windowSeconds} s and has made them; retry after ${resetSeconds} s.`,
    {},
    { 'Retry-After': String(resetSeconds) },
  );
}
