// An account's booking page as the operator sees it: its settings and the path it is served at.
import type { OperatorBookingPage } from '@backbone/contracts';

export interface BookingPageSettings {
  enabled: boolean;
  slug: string | null;
  embedOrigins: string[];
  note: string;
  terms: string;
  locale: string;
}

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
    Path: page.slug ? bookingPagePath(page.slug) : null,
  };
}
