// The day's manifest: who is coming to each timeslot of a date (one activity or all), with one-tap check-in for the
// guide at the door (a phone), and a print view of one table per timeslot without the navigation. The date and the
// activity live in the URL, so Availability links to a slot's manifest.
import { useEffect, useRef } from 'react';
import type { ResultOf } from '@backbone/contracts/browser';
import type { getOperatorManifestOperation } from '@backbone/contracts/browser';
import { Link } from 'wouter';
import { useAccountTime } from '../api/account-time.js';
import { addDays, weekdayLabel } from '../api/dates.js';
import { useActivities } from '../api/activities.hooks.js';
import { useBookingAction, useManifest } from '../api/bookings.hooks.js';
import { useMay } from '../api/session.hooks.js';
import { formatMoney } from '../api/money.js';
import { useUrlState } from '../api/url-state.js';
import { Empty, ErrorState, Loading, problemDetail } from '../components/states.js';
import { customerName } from '../components/customer-inputs.js';
import { countOf } from '../components/words.js';

type Manifest = ResultOf<typeof getOperatorManifestOperation>;
type ManifestSlot = Manifest['Timeslots'][number];
type ManifestBooking = ManifestSlot['Bookings'][number];

const URL_STATE = ['Date', 'ActivityID'] as const;

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
  if (booking.CheckedInAt !== null)
    return (
      <span className="checked-in">
        <span className="tick" aria-hidden="true">
          ✓
        </span>{' '}
        <time dateTime={booking.CheckedInAt}>{clock.time(booking.CheckedInAt)}</time>
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

function SlotTable({ slot }: { slot: ManifestSlot }) {
  return (
    <section className="manifest-slot card" aria-label={`${slot.Time} ${slot.ActivityName}`} data-timeslot={slot.TimeslotID}>
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
            {slot.Bookings.map((b) => (
              <tr key={b.Reference} data-reference={b.Reference} className={b.CheckedInAt ? 'is-checked-in' : undefined}>
                <td data-label="Check-in" className="check-cell">
                  <CheckIn booking={b} />
                </td>
                <td data-label="Customer" className="customer">
                  <strong>{customerName(b.Customer)}</strong>
                  {b.Customer.Phone && <span className="phone">{b.Customer.Phone}</span>}
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
                <td data-label="Waivers">{b.WaiversComplete ? <span className="ok">waivers complete</span> : <span className="warn">waivers missing</span>}</td>
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
            manifest.data.Timeslots.map((slot) => <SlotTable key={slot.TimeslotID} slot={slot} />)
          )}
        </>
      )}
    </div>
  );
}
