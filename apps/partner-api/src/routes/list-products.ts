// GET /api/v2/ota/partner/products: the shopfront's products, cacheable by the partner (ETag, 304, max-age 60).
import { createHash } from 'node:crypto';
import type { Router } from 'express';
import { listProductsOperation } from '@backbone/contracts';
import { listOfferedActivities } from '@backbone/db';
import { toProduct } from '@backbone/domain';
import { mountOperation } from '@backbone/http';
import type { PartnerAppDeps } from '../app.js';

export function mountListProducts(router: Router, deps: PartnerAppDeps): void {
  mountOperation(router, deps, listProductsOperation, async ({ query, auth, req }) => {
    const products = (await listOfferedActivities(deps.pool, auth.accountId, query.name ?? null)).map(toProduct);
    // The validator is the hash of exactly the bytes a 200 would carry (the plumbing serialises with JSON.stringify too).
    const etag = `"${createHash('sha256').update(JSON.stringify(products)).digest('base64url')}"`;
    // The list depends on the caller's key, so shared caches must not reuse it for another key.
    const headers = { ETag: etag, 'Cache-Control': 'private, max-age=60', Vary: 'Authorization' };
    if (ifNoneMatchMatches(req.headers['if-none-match'], etag)) return { status: 304, body: null, headers };
    return { status: 200, body: products, headers };
  });
}

/** RFC 9110 If-None-Match: `*` or any listed tag equal to ours under weak comparison (W/ ignored). */
function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
