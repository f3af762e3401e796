// A month of dates, Monday first: a date with places is a button that says how many are left; a date to come without
// places can be chosen too (its full times offer the waitlist); past dates cannot. Dates are the account's (its time
// zone), never the phone's.
import { formatDate, formatMonth, todayIn, type Locale } from '../format.js';

export interface CalendarProps {
  locale: Locale;
  /** The month shown, YYYY-MM. */
  month: string;
  /** The first month that can be shown (the account's this month). */
  firstMonth: string;
  /** Free places by date, for the dates of the month that have any. */
  places: ReadonlyMap<string, number>;
  selected: string | null;
  loading: boolean;
  onMonth: (month: string) => void;
  onSelect: (date: string) => void;
}

export function shiftMonth(month: string, by: number): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const at = new Date(Date.UTC(year, number - 1 + by, 1));
  return at.toISOString().slice(0, 7);
}

export function monthRange(month: string): { from: string; to: string } {
  const next = shiftMonth(month, 1);
  const last = new Date(Date.parse(`${next}-01T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  return { from: `${month}-01`, to: last };
}

export function Calendar({ locale, month, firstMonth, places, selected, loading, onMonth, onSelect }: CalendarProps) {
  const today = todayIn(locale.timeZone);
  const [year, number] = month.split('-').map(Number) as [number, number];
  const { to } = monthRange(month);
  const days = Number(to.slice(8));
  // Monday first: getUTCDay() is 0 on Sunday.
  const lead = (new Date(Date.UTC(year, number - 1, 1)).getUTCDay() + 6) % 7;
  const cells: (string | null)[] = [...Array<null>(lead).fill(null)];
  for (let day = 1; day <= days; day++) cells.push(`${month}-${String(day).padStart(2, '0')}`);
  while (cells.length % 7) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  const weekdays = Array.from({ length: 7 }, (_, i) => {
    // 2024-01-01 was a Monday.
    const at = new Date(Date.UTC(2024, 0, 1 + i));
    const format = (weekday: 'narrow' | 'long') => new Intl.DateTimeFormat(locale.locale, { weekday, timeZone: 'UTC' }).format(at);
    return { short: format('narrow'), long: format('long') };
  });
  const title = formatMonth(year, number, locale);
  return (
    <div class="calendar">
      <div class="calendar-head">
        <button type="button" class="icon" onClick={() => onMonth(shiftMonth(month, -1))} disabled={month <= firstMonth} aria-label="Previous month">
          ‹
        </button>
        <h3 id="calendar-title" aria-live="polite">
          {title}
        </h3>
        <button type="button" class="icon" onClick={() => onMonth(shiftMonth(month, 1))} aria-label="Next month">
          ›
        </button>
      </div>
      <table aria-labelledby="calendar-title" aria-busy={loading}>
        <thead>
          <tr>
            {weekdays.map((day) => (
              <th key={day.long} scope="col" abbr={day.long}>
                {day.short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, w) => (
            <tr key={w}>
              {week.map((date, d) => {
                if (!date) return <td key={d} />;
                const free = places.get(date) ?? 0;
                const past = date < today;
                const label = `${formatDate(date, locale)}, ${free ? `${free} ${free === 1 ? 'place' : 'places'} left` : 'no places'}`;
                return (
                  <td key={d}>
                    <button
                      type="button"
                      class={free ? 'day open' : 'day'}
                      aria-label={label}
                      aria-pressed={date === selected}
                      aria-disabled={past ? 'true' : undefined}
                      onClick={() => !past && onSelect(date)}
                    >
                      {Number(date.slice(8))}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {!loading && places.size === 0 ? (
        <p class="hint">No dates with free places this month. Try the next month, or choose a date to join the waitlist of a full time.</p>
      ) : null}
    </div>
  );
}
