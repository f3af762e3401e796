// The day's manifest: who is coming to each timeslot of a date (one activity or all), with one-tap check-in for the
// guide at the door (a phone: targets of 44 px, the phone number a tel: link), a search over the day's guests, the
// timeslots without bookings folded away unless asked for, and a print view of one table per timeslot that has guests,
// without the navigation. The date, the activity, the search and the toggle live in the URL, so Availability links to
// a slot's manifest.
import { useEffect, useRef, useState } from 'react';
import type { ResultOf } from '@backbone/contracts/browser';
import type { getOperatorManifestOperation } from '@backbone/contracts/browser';
import { Link } from 'wouter';
import { useAccountTime } from '../api/account-time.js';
import { addDays, weekdayLabel } from '../api/dates.js';
import { useActivities } from '../api/activities.hooks.js';
import { useBooking, useBookingAction, useManifest } from '../api/bookings.hooks.js';
import { AnswerValue } from '../components/answer-value.js';
import { useMay } from '../api/session.hooks.js';
import { formatMoney } from '../api/money.js';
import { useUrlState } from '../api/url-state.js';
import { Empty, ErrorState, Loading, problemDetail } from '../components/states.js';
import { customerName } from '../components/customer-inputs.js';
import { countOf } from '../components/words.js';

type Manifest = ResultOf<typeof getOperatorManifestOperation>;
type ManifestSlot = Manifest['Timeslots'][number];
type ManifestBooking = ManifestSlot['Bookings'][number];

const URL_STATE = ['Date', 'ActivityID', 'Q', 'Empty'] as const;

/** A number as a tel: address (digits and a leading +), or null when nothing callable is left. */
function telHref(phone: string): string | null {
  const digits = phone.replace(/[^0-9+]/g, '').replace(/(?!^)\+/g, '');
  return digits.replace('+', '').length >= 3 ? `tel:${digits}` : null;
}

/** Whether a booking matches the search: its name, reference, phone or e-mail, case and accents aside. */
const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
function matches(booking: ManifestBooking, query: string): boolean {
  const haystack = [booking.Customer.FirstName, booking.Customer.LastName, booking.Reference, booking.Customer.Phone, booking.Customer.Email]
    .filter(Boolean)
    .join(' ');
  return folded(query)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => folded(haystack).includes(word));
}

function Phone({ phone }: { phone: string }) {
  const href = telHref(phone);
  return href ? (
    <a className="phone" href={href}>
      {phone}
    </a>
  ) : (
    <span className="phone">{phone}</span>
  );
}

function CheckIn({ booking }: { booking: ManifestBooking }) {
  const may = useMay();
  const clock = useAccountTime();
  const action = useBookingAction(booking.Reference);
  const name = customerName(booking.Customer);
  // Check in and Undo are different buttons: the one that appears takes the focus from the one that was pressed.
  const pressed = useRef(false);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!pressed.current) return;
    pressed.current = false;
    button.current?.focus();
  }, [booking.CheckedInAt]);
  const act = (change: 'check-in' | 'undo-check-in') => {
    if (action.isPending) return;
    pressed.current = true;
    action.mutate({ action: change });
  };
  // A party partly arrived: the count goes down or up a guest at a time (the first check-in takes the whole party).
  const arrived = booking.CheckedInParticipants;
  const recount = (participants: number) => action.isPending || action.mutate({ action: 'check-in', participants });
  if (booking.CheckedInAt !== null)
    return (
      <span className="checked-in">
        <span className="tick" aria-hidden="true">
          ✓
        </span>{' '}
        <time dateTime={booking.CheckedInAt}>{clock.time(booking.CheckedInAt)}</time>
        {booking.Participants > 1 && (
          <span className="arrived" role="group" aria-label={`Arrived of ${name}'s party`}>
            {may('checkInOperatorBooking') && (
              <button
                type="button"
                className="secondary small no-print"
                onClick={() => recount(arrived - 1)}
                disabled={arrived <= 1}
                aria-label={`One less of ${name}'s party arrived`}
              >
                −
              </button>
            )}
            <span className="arrived-count" data-arrived={arrived}>
              {arrived} of {booking.Participants}
            </span>
            {may('checkInOperatorBooking') && (
              <button
                type="button"
                className="secondary small no-print"
                onClick={() => recount(arrived + 1)}
                disabled={arrived >= booking.Participants}
                aria-label={`One more of ${name}'s party arrived`}
              >
                +
              </button>
            )}
          </span>
        )}
        {may('undoOperatorCheckIn') && (
          <button
            ref={button}
            type="button"
            className="secondary small no-print"
            onClick={() => act('undo-check-in')}
            aria-disabled={action.isPending}
            aria-label={`Undo check-in of ${name}`}
          >
            Undo
          </button>
        )}
        {action.isError && <span className="form-error">{problemDetail(action.error)}</span>}
      </span>
    );
  if (!may('checkInOperatorBooking')) return <span className="muted">Not yet</span>;
  return (
    <>
      <button ref={button} type="button" className="check-in" onClick={() => act('check-in')} aria-disabled={action.isPending} aria-label={`Check in ${name}`}>
        Check in
      </button>
      <span className="print-only print-box" aria-hidden="true" />
      {action.isError && (
        <span className="form-error" role="alert">
          {problemDetail(action.error)}
        </span>
      )}
    </>
  );
}

/**
 * A booking's waiver answers, read when the guide opens them (the manifest itself carries only whether they are
 * complete, which keeps the day's list light).
 */
function WaiverAnswers({ reference }: { reference: string }) {
  const booking = useBooking(reference);
  if (booking.isPending) return <Loading what="the answers" />;
  if (booking.isError) return <ErrorState error={booking.error} />;
  if (booking.data.Answers.length === 0) return <p className="muted">No answers.</p>;
  return (
    <dl className="answers">
      {booking.data.Answers.map((a, i) => (
        <div key={i} className="answer">
          <dt>
            {a.Question}
            {a.Participant !== null ? ` (participant ${a.Participant})` : ''}
          </dt>
          <dd>
            <AnswerValue answer={a} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Waivers({ booking }: { booking: ManifestBooking }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="waivers" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{booking.WaiversComplete ? <span className="ok">waivers complete</span> : <span className="warn">waivers missing</span>}</summary>
      {open && <WaiverAnswers reference={booking.Reference} />}
    </details>
  );
}

function SlotTable({ slot, bookings }: { slot: ManifestSlot; bookings: readonly ManifestBooking[] }) {
  return (
    // A timeslot without guests is never printed: the print is the list at the door.
    <section
      className={slot.Bookings.length === 0 ? 'manifest-slot card no-print' : 'manifest-slot card'}
      aria-label={`${slot.Time} ${slot.ActivityName}`}
      data-timeslot={slot.TimeslotID}
    >
      <div className="manifest-head">
        <h2>
          {slot.Time} · {slot.ActivityName}
        </h2>
        <span className="manifest-counts">
          {slot.Totals.Participants} of {countOf(slot.Capacity, 'place')} · {countOf(slot.Totals.Bookings, 'booking')} ·{' '}
          <span data-checked-in-count={slot.Totals.CheckedIn}>{slot.Totals.CheckedIn} checked in</span>
          {slot.Closed && <span className="tag">closed</span>}
        </span>
      </div>
      {slot.Bookings.length === 0 ? (
        <p className="muted">No bookings.</p>
      ) : bookings.length === 0 ? (
        <p className="muted">No booking matches the search.</p>
      ) : (
        <table className="table static manifest-table">
          <thead>
            <tr>
              <th scope="col">Check-in</th>
              <th scope="col">Customer</th>
              <th scope="col" className="num">
                Pax
              </th>
              <th scope="col">Reference</th>
              <th scope="col">Channel</th>
              <th scope="col">Waivers</th>
              <th scope="col">Note</th>
              <th scope="col" className="num">
                Price
              </th>
            </tr>
          </thead>
          <tbody>
            {bookings.map((b) => (
              <tr key={b.Reference} data-reference={b.Reference} className={b.CheckedInAt ? 'is-checked-in' : undefined}>
                <td data-label="Check-in" className="check-cell">
                  <CheckIn booking={b} />
                </td>
                <td data-label="Customer" className="customer">
                  <strong>{customerName(b.Customer)}</strong>
                  {b.Customer.Phone && <Phone phone={b.Customer.Phone} />}
                </td>
                <td data-label="Pax" className="num">
                  {b.Participants}
                </td>
                <td data-label="Reference" className="mono">
                  <Link href={`/bookings?Open=${b.Reference}`}>{b.Reference}</Link>
                  {b.Status === 'on_hold' && <span className="tag">on hold</span>}
                </td>
                <td data-label="Channel">
                  <span className={`badge badge-${b.Channel}`}>{b.Channel}</span>
                  {b.Partner && <span className="partner">{b.Partner.Name}</span>}
                </td>
                <td data-label="Waivers" className="waivers-cell">
                  <Waivers booking={b} />
                </td>
                <td data-label="Note" className="note">
                  {b.Note ?? ''}
                </td>
                <td data-label="Price" className="num">
                  {formatMoney(b.Price.TotalMinor, b.Price.Currency)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function ManifestPage() {
  const [state, setState] = useUrlState(URL_STATE);
  const clock = useAccountTime();
  const date = state.Date ?? clock.today();
  const activities = useActivities();
  const manifest = useManifest({ Date: date, ActivityID: state.ActivityID });
  const activityName = activities.data?.find((a) => a.ActivityID === state.ActivityID)?.Name;
  // The list follows the typing; the URL keeps the search for a reload or a shared link.
  const [search, setSearch] = useState(state.Q ?? '');
  const query = search.trim();
  const showEmpty = state.Empty === '1';
  const slots = manifest.data?.Timeslots ?? [];
  const emptySlots = slots.filter((s) => s.Bookings.length === 0).length;
  // Searching shows only the timeslots with a match; otherwise the empty ones only when asked for.
  const shown = slots
    .map((slot) => ({ slot, bookings: query ? slot.Bookings.filter((b) => matches(b, query)) : slot.Bookings }))
    .filter(({ slot, bookings }) => (query ? bookings.length > 0 : showEmpty || slot.Bookings.length > 0));
  return (
    <div className="page manifest">
      <div className="page-head">
        <h1>
          Manifest <span className="print-only">· {weekdayLabel(date)}</span>
          {activityName && <span className="print-only"> · {activityName}</span>}
        </h1>
        <button type="button" className="secondary no-print" onClick={() => window.print()}>
          Print
        </button>
      </div>
      <div className="filters no-print">
        <label>
          Date
          <input type="date" name="Date" required value={date} onChange={(e) => setState({ Date: e.target.value })} />
        </label>
        <label>
          Activity
          <select name="ActivityID" value={state.ActivityID ?? ''} onChange={(e) => setState({ ActivityID: e.target.value || null })}>
            <option value="">All</option>
            {activities.data?.map((a) => (
              <option key={a.ActivityID} value={a.ActivityID}>
                {a.Name}
              </option>
            ))}
          </select>
        </label>
        <form
          className="grow"
          role="search"
          aria-label="Search the day’s guests"
          onSubmit={(e) => {
            e.preventDefault();
            setState({ Q: search.trim() || null });
          }}
        >
          <label>
            Find a guest
            <input
              type="search"
              name="Q"
              placeholder="Name, reference, phone"
              value={search}
              onChange={(e) => {
                setSearch(e.target.value);
                setState({ Q: e.target.value.trim() || null });
              }}
            />
          </label>
        </form>
        <div className="week-nav" role="group" aria-label="Day">
          <button type="button" className="secondary" onClick={() => setState({ Date: addDays(date, -1) })}>
            ← Previous day
          </button>
          <button type="button" className="secondary" onClick={() => setState({ Date: addDays(date, 1) })}>
            Next day →
          </button>
        </div>
      </div>
      {manifest.isPending && <Loading what="the manifest" />}
      {manifest.isError && <ErrorState error={manifest.error} />}
      {manifest.data && (
        <>
          <p className="manifest-totals" aria-label="Day totals">
            {weekdayLabel(manifest.data.Date)}: {countOf(manifest.data.Totals.Participants, 'participant')} in{' '}
            {countOf(manifest.data.Totals.Bookings, 'booking')}, {manifest.data.Totals.CheckedIn} checked in
          </p>
          {manifest.data.Timeslots.length === 0 ? (
            <Empty>No timeslots on this day.</Empty>
          ) : (
            <>
              {emptySlots > 0 && (
                <label className="check no-print">
                  <input type="checkbox" name="Empty" checked={showEmpty} onChange={(e) => setState({ Empty: e.target.checked ? '1' : null })} /> Show the{' '}
                  {countOf(emptySlots, 'timeslot')} without bookings
                </label>
              )}
              {shown.map(({ slot, bookings }) => (
                <SlotTable key={slot.TimeslotID} slot={slot} bookings={bookings} />
              ))}
              {shown.length === 0 && <Empty>{query ? 'No booking matches the search.' : 'No bookings on this day.'}</Empty>}
            </>
          )}
        </>
      )}
    </div>
  );
}
