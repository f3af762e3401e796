// What every shop route does first: spend the client address's budget of this kind of request (reads, holds,
// uploads: the abuse limits), then open the page its slug names (404 when there is no enabled page).
import type { Request, Response } from 'express';
import type { BookingPage } from '@backbone/db';
import { notFound } from '@backbone/domain';
import type { AddressLimitKind } from '@backbone/http';
import type { ShopCaller } from '@backbone/use-cases';
import type { ShopAppDeps } from '../../deps.js';

export async function shopCallerOf(
  deps: ShopAppDeps,
  slug: string,
  http: { req: Request; res: Response },
  kind: AddressLimitKind,
): Promise<ShopCaller & { page: BookingPage }> {
  // The gateway's X-Forwarded-For, believed from a loopback or private proxy alone (app.ts's trust proxy).
  const clientAddress = http.req.ip ?? http.req.socket.remoteAddress ?? 'unknown';
  await deps.shopRateLimiter?.admit(kind, clientAddress, http.res);
  const page = await deps.shopPages.find(slug);
  if (!page) throw notFound('Booking page');
  return { page, clientAddress };
}

/** Nothing a shop answer says may be kept by a shared cache: a booking's answer is its customer's alone. */
export const PRIVATE = { 'Cache-Control': 'no-store' } as const;
