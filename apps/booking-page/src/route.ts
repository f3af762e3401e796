// The page's routes live in the browser: /book/{Slug}, /book/{Slug}/{ActivityID}?date=YYYY-MM-DD,
// /book/{Slug}/manage/{Token} and a waitlist offer's claim link, /book/{Slug}/claim/{Token}. Links the operator puts on its site or in a campaign open the same view as a click.
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { kind: 'shop'; slug: string }
  | { kind: 'activity'; slug: string; activityId: string; date: string | null }
  | { kind: 'manage'; slug: string; token: string }
  | { kind: 'claim'; slug: string; token: string }
  | { kind: 'not-found' };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function parseRoute(pathname: string, search: string): Route {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] !== 'book' || parts.length < 2) return { kind: 'not-found' };
  const slug = parts[1]!;
  if (parts.length === 2) return { kind: 'shop', slug };
  if (parts.length === 3) {
    const date = new URLSearchParams(search).get('date');
    return { kind: 'activity', slug, activityId: parts[2]!, date: date && DATE.test(date) ? date : null };
  }
  if (parts.length === 4 && parts[2] === 'manage') return { kind: 'manage', slug, token: parts[3]! };
  if (parts.length === 4 && parts[2] === 'claim') return { kind: 'claim', slug, token: parts[3]! };
  return { kind: 'not-found' };
}

export function shopPath(slug: string): string {
  return `/book/${encodeURIComponent(slug)}`;
}

export function activityPath(slug: string, activityId: string, date?: string | null): string {
  return `${shopPath(slug)}/${encodeURIComponent(activityId)}${date ? `?date=${date}` : ''}`;
}

export function managePath(slug: string, token: string): string {
  return `${shopPath(slug)}/manage/${encodeURIComponent(token)}`;
}

const listeners = new Set<() => void>();

/** Goes to `path` inside the page (no reload); `replace` keeps the history as it is (a chosen date, say). */
export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  for (const listener of listeners) listener();
}

export function useRoute(): Route {
  const read = () => parseRoute(location.pathname, location.search);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const update = () => setRoute(read());
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return route;
}

/** A same-page link's click handler: plain clicks navigate in the page, modified ones (new tab) go to the browser. */
export function onLinkClick(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = event.currentTarget as HTMLAnchorElement;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search);
}
