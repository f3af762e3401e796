// Choosing a date, then a time: the calendar of the month with places left per date, then the date's timeslots,
// a full one (or one with fewer places than the party) shown as such and not chosen, with a way onto its waitlist.
import { useMemo, useState } from 'preact/hooks';
import { formatDate, formatTime, todayIn, type Locale } from '../format.js';
import { useLoad } from '../load.js';
import { shop, type ShopTimeslot } from '../shop.js';
import { Calendar } from './calendar.js';
import { ErrorMessage, Loading } from './states.js';

export interface SlotPickerProps {
  slug: string;
  activityId: string;
  locale: Locale;
  date: string | null;
  time: string | null;
  /** Places the party needs: a timeslot with fewer is shown but cannot be chosen. */
  needed: number;
  /** The date whose month the calendar opens at when none is chosen (the booking being moved). */
  near?: string;
  onDate: (date: string) => void;
  onTime: (slot: ShopTimeslot) => void;
  /** Offered on a timeslot too full for the party: join its waitlist. */
  onWaitlist?: (slot: ShopTimeslot) => void;
}

export function SlotPicker({ slug, activityId, locale, date, time, needed, near, onDate, onTime, onWaitlist }: SlotPickerProps) {
  const today = todayIn(locale.timeZone);
  const firstMonth = today.slice(0, 7);
  const opening = (date ?? near ?? '').slice(0, 7);
  const [month, setMonth] = useState(opening >= firstMonth ? opening : firstMonth);
  const dates = useLoad(() => shop.dates(slug, activityId, month), [slug, activityId, month]);
  const places = useMemo(() => new Map((dates.data ?? []).map((d) => [d.Date, d.Available])), [dates.data]);
  const slots = useLoad(date ? () => shop.timeslots(slug, activityId, date) : null, [slug, activityId, date]);
  return (
    <div class="slot-picker">
      <section aria-labelledby="date-heading">
        <h2 id="date-heading">Date</h2>
        {dates.error ? <ErrorMessage error={dates.error} retry={dates.reload} /> : null}
        <Calendar
          locale={locale}
          month={month}
          firstMonth={firstMonth}
          places={places}
          selected={date}
          loading={dates.loading}
          onMonth={setMonth}
          onSelect={onDate}
        />
      </section>
      {date ? (
        <section aria-labelledby="time-heading">
          <h2 id="time-heading">Time on {formatDate(date, locale)}</h2>
          {slots.loading ? <Loading what="the times" /> : null}
          {slots.error ? <ErrorMessage error={slots.error} retry={slots.reload} /> : null}
          {slots.data && slots.data.length === 0 ? <p>No times left on this date. Choose another date.</p> : null}
          {slots.data && slots.data.length > 0 ? (
            <ul class="slots" role="list">
              {slots.data.map((slot) => {
                const full = slot.Full || slot.Available <= 0;
                const tooFew = !full && slot.Available < needed;
                const state = full ? 'Full' : `${slot.Available} ${slot.Available === 1 ? 'place' : 'places'} left`;
                return (
                  <li key={slot.Time}>
                    <button
                      type="button"
                      class={full ? 'slot full' : 'slot'}
                      aria-pressed={slot.Time === time}
                      aria-disabled={full || tooFew ? 'true' : undefined}
                      onClick={() => !full && !tooFew && onTime(slot)}
                    >
                      <span class="slot-time">{formatTime(slot.Time, locale)}</span>
                      <span class="slot-places">{tooFew ? `${state}: not enough for ${needed}` : state}</span>
                    </button>
                    {(full || tooFew) && onWaitlist ? (
                      <button
                        type="button"
                        class="secondary waitlist"
                        aria-label={`Join the waitlist for ${formatTime(slot.Time, locale)}`}
                        onClick={() => onWaitlist(slot)}
                      >
                        Join the waitlist
                      </button>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
