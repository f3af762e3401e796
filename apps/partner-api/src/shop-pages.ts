// The booking pages the shop API's requests name by slug. Every shop request looks its page up first, so a page is
// kept for a second: a page turned off (or a slug changed) answers for at most that long after, and a popular page
// costs one query a second per process instead of one per request.
import { findEnabledBookingPage, type BookingPage, type Pool } from '@backbone/db';

export interface ShopPages {
  /** The enabled page with this slug; null when there is none. */
  find(slug: string): Promise<BookingPage | null>;
}

const MAX_PAGES = 10_000;

export function createShopPages(pool: Pool, ttlMs = 1000): ShopPages {
  const cache = new Map<string, { page: BookingPage | null; until: number }>();
  return {
    async find(slug) {
      const now = Date.now();
      const cached = cache.get(slug);
      if (cached && cached.until > now) return cached.page;
      const page = await findEnabledBookingPage(pool, slug);
      if (cache.size >= MAX_PAGES) cache.clear();
      cache.set(slug, { page, until: now + ttlMs });
      return page;
    },
  };
}
