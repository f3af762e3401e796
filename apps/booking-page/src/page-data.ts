// The account's page (its name, locale, currency, time zone, note, terms and activities), fetched once per visit:
// going from the list to an activity and back asks the server nothing again.
import { shop, type ShopPage } from './shop.js';
import { useLoad } from './load.js';
import type { Locale } from './format.js';

const pages = new Map<string, Promise<ShopPage>>();

function loadPage(slug: string): Promise<ShopPage> {
  let page = pages.get(slug);
  if (!page) {
    page = shop.page(slug);
    pages.set(slug, page);
    // A failed load is asked again next time (a dropped connection is no reason to show an error for the visit).
    page.catch(() => pages.delete(slug));
  }
  return page;
}

export function useShopPage(slug: string) {
  return useLoad(() => loadPage(slug), [slug]);
}

export function localeOf(page: ShopPage): Locale {
  return { locale: page.Locale || 'en', currency: page.Currency ?? 'EUR', timeZone: page.TimeZone };
}
