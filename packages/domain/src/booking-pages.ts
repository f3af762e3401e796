// An account's booking page as the operator sees it: its settings and the path it is served at.
import type { OperatorBookingPage } from '@backbone/contracts';

export interface BookingPageSettings {
  enabled: boolean;
  slug: string | null;
  embedOrigins: string[];
  note: string;
  terms: string;
  locale: string;
  holdMinutes: number;
  waitlistOfferMinutes: number;
}

/**
 * Slugs no page may take: the paths the page's own files use under /book/ (the built page's hashed files are served at
 * /book/assets/..., before any page address, so a page there could never be opened).
 */
export const RESERVED_BOOKING_PAGE_SLUGS: readonly string[] = ['assets'];

export const isReservedBookingPageSlug = (slug: string): boolean => RESERVED_BOOKING_PAGE_SLUGS.includes(slug);

/** Where a page with this slug is served, under the service's base URL. */
export const bookingPagePath = (slug: string): string => `/book/${slug}`;

export function toOperatorBookingPage(page: BookingPageSettings): OperatorBookingPage {
  return {
    Enabled: page.enabled,
    Slug: page.slug,
    EmbedOrigins: page.embedOrigins,
    Note: page.note,
    Terms: page.terms,
    Locale: page.locale,
    HoldMinutes: page.holdMinutes,
    WaitlistOfferMinutes: page.waitlistOfferMinutes,
    Path: page.slug ? bookingPagePath(page.slug) : null,
  };
}
