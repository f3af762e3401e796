// Every instant the console shows (booked at, checked in, history, audit, e-mails, keys, users, failed events) in the
// account's time zone and one format: a 24-hour clock like the timeslots' own times. The browser's zone is never used;
// where it differs from the account's, the zone is named (beside each time and once in the header), so that "14:05"
// is never read as the wrong one. Named by its IANA name, as the header does: Intl's short names are abbreviations only
// for some zones in some locales and otherwise an offset ("GMT+0" for Lisbon in winter), which names no zone.
import { useMemo } from 'react';
import { todayIn } from './dates.js';
import { useSession } from './session.hooks.js';

export interface AccountTime {
  /** The account's IANA zone. */
  zone: string;
  /** Whether the browser's own zone is another one (then every time names its zone). */
  differs: boolean;
  /** "23 Nov 2025, 14:05" ("23 Nov 2025, 14:05 Europe/Lisbon" when the browser's zone differs). */
  dateTime(iso: string): string;
  /** "14:05" ("14:05 Europe/Lisbon" when the browser's zone differs), for a time on a page that already names the day. */
  time(iso: string): string;
  /** "23 Nov 2025". */
  date(iso: string): string;
  /** Today's date (YYYY-MM-DD) in the account's zone. */
  today(): string;
}

export function accountTime(zone: string, browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone): AccountTime {
  const differs = browserZone !== zone;
  const clock = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone } as const;
  const day = { day: 'numeric', month: 'short', year: 'numeric', timeZone: zone } as const;
  const named = differs ? ` ${zone}` : '';
  const dateTime = new Intl.DateTimeFormat(undefined, { ...day, ...clock });
  const time = new Intl.DateTimeFormat(undefined, clock);
  const date = new Intl.DateTimeFormat(undefined, day);
  return {
    zone,
    differs,
    dateTime: (iso) => dateTime.format(new Date(iso)) + named,
    time: (iso) => time.format(new Date(iso)) + named,
    date: (iso) => date.format(new Date(iso)),
    today: () => todayIn(zone),
  };
}

/** The account's clock for the signed-in session (UTC until the session has answered, which the pages wait for). */
export function useAccountTime(): AccountTime {
  const zone = useSession().data?.TimeZone ?? 'UTC';
  return useMemo(() => accountTime(zone), [zone]);
}
