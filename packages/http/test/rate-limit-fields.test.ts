// What a limited answer tells the client: the RateLimit-Policy and RateLimit fields (IETF draft), and the 429.
import type { Response } from 'express';
import { describe, expect, it } from 'vitest';
import { HttpProblem } from '../src/problems.js';
import { policyField, rateLimited, setRateLimitFields } from '../src/rate-limit-fields.js';

describe('the RateLimit fields and the 429', () => {
  it('writes the policy as the IETF draft does: q requests per w seconds', () => {
    expect(policyField({ quota: 40, windowSeconds: 2 })).toBe('"default";q=40;w=2');
  });

  it('sets RateLimit-Policy and RateLimit with what is left and when it is whole again', () => {
    const headers: Record<string, string> = {};
    const res = { setHeader: (name: string, value: string) => (headers[name] = value) };
    setRateLimitFields(res as unknown as Response, '"default";q=40;w=2', 12, 1);
    expect(headers).toEqual({ 'RateLimit-Policy': '"default";q=40;w=2', RateLimit: '"default";r=12;t=1' });
  });

  it('refuses a spent key with a 429 problem that says its quota and carries Retry-After', () => {
    const problem = rateLimited({ quota: 40, windowSeconds: 2 }, 1);
    expect(problem).toBeInstanceOf(HttpProblem);
    expect(problem.code).toBe('rate-limited');
    expect(problem.message).toBe('This API key may make 40 requests per 2 s and has made them; retry after 1 s.');
    expect(problem.headers).toEqual({ 'Retry-After': '1' });
  });
});
