// Availability: one week of one activity, each timeslot with a booked/capacity bar and its waitlist's link; close, reopen, change capacity;
// generate timeslots and remove empty ones (schedule-forms.tsx), each previewed first.
// The activity and the week live in the URL. A risky change is explained before it is made: closing a timeslot with
// bookings names the guests (who stay booked) with a link to each booking to move or cancel it, and asks; a capacity
// below what is booked is refused on the spot (the API would too), and one far above the usual asks first.
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import type { OperatorTimeslot } from '@backbone/contracts/browser';
import { useAccountTime } from '../api/account-time.js';
import { addDays, weekdayLabel } from '../api/dates.js';
import { useActivities } from '../api/activities.hooks.js';
import { useTimeslotChange, useTimeslots } from '../api/availability.hooks.js';
import { useManifest } from '../api/bookings.hooks.js';
import { useMay } from '../api/session.hooks.js';
import { customerName } from '../components/customer-inputs.js';
import { countOf } from '../components/words.js';
import { useUrlState } from '../api/url-state.js';
import { ActivityPicker } from '../components/activity-picker.js';
import { GenerateForm, RemoveEmptyForm } from '../components/schedule-forms.js';
import { Empty, ErrorState, Loading, problemDetail } from '../components/states.js';

const URL_STATE = ['ActivityID', 'Week'] as const;

function CapacityBar({ slot }: { slot: OperatorTimeslot }) {
  const share = slot.Capacity === 0 ? 1 : Math.min(1, slot.Booked / slot.Capacity);
  return (
    <div
      className="bar"
      role="meter"
      aria-valuemin={0}
      aria-valuemax={slot.Capacity}
      aria-valuenow={Math.min(slot.Booked, slot.Capacity)}
      aria-label={`${slot.Booked} of ${slot.Capacity} booked`}
    >
      {/* React sets this through the CSSOM, which the CSP's style-src 'self' allows (only inline style markup is refused). */}
      <div className={share >= 1 ? 'bar-fill full' : 'bar-fill'} style={{ width: `${Math.round(share * 100)}%` }} />
    </div>
  );
}

/** The guests of a timeslot about to be closed, named, each with a link to their booking (to move or cancel it there). */
function CloseConfirmation({ slot, activityId, onClose, onKeep }: { slot: OperatorTimeslot; activityId: string; onClose: () => void; onKeep: () => void }) {
  const manifest = useManifest({ Date: slot.Date, ActivityID: activityId });
  const bookings = manifest.data?.Timeslots.find((t) => t.TimeslotID === slot.TimeslotID)?.Bookings ?? [];
  return (
    <div className="confirm" role="alertdialog" aria-label={`Close ${slot.Date} ${slot.Time}?`}>
      <p>
        {countOf(slot.Booked, 'guest')} booked at {slot.Time}. Closing stops new bookings; these stay booked unless you move or cancel them:
      </p>
      {manifest.isPending ? (
        <Loading what="the guests" />
      ) : (
        <ul className="confirm-guests">
          {bookings.map((b) => (
            <li key={b.Reference}>
              <Link href={`/bookings?Open=${b.Reference}`}>{customerName(b.Customer)}</Link> ({b.Participants})
            </li>
          ))}
        </ul>
      )}
      <div className="action-row">
        <button type="button" className="danger small" onClick={onClose} autoFocus>
          Close with {countOf(bookings.length || slot.Booked, bookings.length ? 'booking' : 'guest')}
        </button>
        <button type="button" className="secondary small" onClick={onKeep}>
          Keep open
        </button>
      </div>
    </div>
  );
}

function Slot({ slot, activityId, usualCapacity }: { slot: OperatorTimeslot; activityId: string; usualCapacity: number }) {
  const change = useTimeslotChange();
  const may = useMay();
  const [capacity, setCapacity] = useState(String(slot.Capacity));
  const [confirming, setConfirming] = useState<'close' | 'capacity' | null>(null);
  const wanted = Number(capacity);
  // Said before anything is sent: the API refuses a capacity below what is booked, and a typo of a few zeros is asked.
  // An overbooked timeslot's own capacity is below what is booked (an owner chose so): only a new one is judged.
  const belowBooked = capacity !== '' && Number.isInteger(wanted) && wanted !== slot.Capacity && wanted < slot.Booked;
  const farAbove = wanted > 2 * Math.max(slot.Capacity, usualCapacity);
  const setTo = () => {
    setConfirming(null);
    change.mutate({ timeslotId: slot.TimeslotID, action: 'capacity', capacity: wanted });
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (belowBooked) return;
    if (farAbove) setConfirming('capacity');
    else setTo();
  };
  const close = () => {
    setConfirming(null);
    change.mutate({ timeslotId: slot.TimeslotID, action: 'close' });
  };
  return (
    <li className={`slot slot-${slot.Status}${slot.Started ? ' slot-started' : ''}`} data-timeslot={slot.TimeslotID} aria-label={`${slot.Date} ${slot.Time}`}>
      <div className="slot-head">
        <strong>{slot.Time}</strong>
        <span className="slot-count">
          {slot.Booked}/{slot.Capacity}
        </span>
        {slot.Status === 'closed' && <span className="tag">closed</span>}
        {/* An owner's overbooking: the places past the capacity, said in words. */}
        {slot.Booked > slot.Capacity && <span className="tag">{slot.Booked - slot.Capacity} over</span>}
        <Link className="slot-manifest" href={`/manifest?Date=${slot.Date}&ActivityID=${activityId}`} aria-label={`Manifest of ${slot.Date} ${slot.Time}`}>
          Manifest
        </Link>
        {may('listTimeslotWaitlist') && (
          <Link
            className="slot-manifest"
            href={`/waitlist?TimeslotID=${slot.TimeslotID}&ActivityID=${activityId}&Date=${slot.Date}&Time=${slot.Time}`}
            aria-label={`Waitlist of ${slot.Date} ${slot.Time}`}
          >
            Waitlist
          </Link>
        )}
      </div>
      <CapacityBar slot={slot} />
      {!slot.Started && may('changeTimeslotCapacity') && (
        <div className="slot-actions">
          <form onSubmit={save} className="inline">
            <label className="sr-only" htmlFor={`cap-${slot.TimeslotID}`}>
              Capacity of {slot.Time}
            </label>
            <input
              id={`cap-${slot.TimeslotID}`}
              type="number"
              min={0}
              inputMode="numeric"
              value={capacity}
              onChange={(e) => {
                setCapacity(e.target.value);
                setConfirming(null);
              }}
              aria-label={`Capacity of ${slot.Date} ${slot.Time}`}
              aria-invalid={belowBooked}
              aria-describedby={belowBooked ? `cap-note-${slot.TimeslotID}` : undefined}
            />
            <button type="submit" className="secondary small" disabled={change.isPending || capacity === String(slot.Capacity) || belowBooked}>
              Set
            </button>
          </form>
          {slot.Status === 'open' ? (
            <button
              type="button"
              className="secondary small"
              onClick={() => (slot.Booked > 0 ? setConfirming('close') : close())}
              disabled={change.isPending}
              aria-expanded={slot.Booked > 0 ? confirming === 'close' : undefined}
            >
              Close
            </button>
          ) : (
            <button
              type="button"
              className="small"
              onClick={() => change.mutate({ timeslotId: slot.TimeslotID, action: 'reopen' })}
              disabled={change.isPending}
            >
              Reopen
            </button>
          )}
        </div>
      )}
      {belowBooked && (
        <p className="form-error" id={`cap-note-${slot.TimeslotID}`} role="alert">
          {countOf(slot.Booked, 'place')} {slot.Booked === 1 ? 'is' : 'are'} booked: the capacity cannot go below {slot.Booked}.
        </p>
      )}
      {confirming === 'capacity' && (
        <div className="confirm" role="alertdialog" aria-label={`Set ${wanted} places?`}>
          <p>
            {countOf(wanted, 'place')} is far more than the usual {usualCapacity} (now {slot.Capacity}). Set it anyway?
          </p>
          <div className="action-row">
            <button type="button" className="small" onClick={setTo} autoFocus>
              Set {wanted} places
            </button>
            <button
              type="button"
              className="secondary small"
              onClick={() => {
                setConfirming(null);
                setCapacity(String(slot.Capacity));
              }}
            >
              Keep {slot.Capacity}
            </button>
          </div>
        </div>
      )}
      {confirming === 'close' && <CloseConfirmation slot={slot} activityId={activityId} onClose={close} onKeep={() => setConfirming(null)} />}
      {change.isError && (
        <p className="form-error" role="alert">
          {problemDetail(change.error)}
        </p>
      )}
    </li>
  );
}

export function AvailabilityPage() {
  const [state, setState] = useUrlState(URL_STATE);
  const activities = useActivities();
  const may = useMay();
  const activityId = state.ActivityID ?? activities.data?.[0]?.ActivityID;
  const activity = activities.data?.find((a) => a.ActivityID === activityId);
  // Seven days from the one asked for, today's by default: the page opens on the account's today, not on a week half gone.
  const clock = useAccountTime();
  const week = state.Week ?? clock.today();
  const days = Array.from({ length: 7 }, (_, i) => addDays(week, i));
  const timeslots = useTimeslots(activityId, days[0]!, days[6]!);
  return (
    <div className="page">
      <div className="page-head">
        <h1>Availability</h1>
      </div>
      {activities.isPending && <Loading what="activities" />}
      {activities.isError && <ErrorState error={activities.error} />}
      {activities.data && activities.data.length === 0 && <Empty>No activities yet.</Empty>}
      {activities.data && activities.data.length > 0 && (
        <>
          <div className="filters">
            <ActivityPicker activities={activities.data} value={activityId} onChange={(id) => setState({ ActivityID: id })} />
            <div className="week-nav" role="group" aria-label="Week">
              <button type="button" className="secondary" onClick={() => setState({ Week: addDays(week, -7) })}>
                ← Previous 7 days
              </button>
              <span className="week-label">
                {weekdayLabel(week)} to {weekdayLabel(addDays(week, 6))}
              </span>
              <button type="button" className="secondary" onClick={() => setState({ Week: addDays(week, 7) })}>
                Next 7 days →
              </button>
            </div>
          </div>
          {activity && may('generateTimeslots') && (
            <GenerateForm key={activity.ActivityID} activityId={activity.ActivityID} week={week} capacity={activity.MaxParticipants} />
          )}
          {activity && may('removeEmptyTimeslots') && <RemoveEmptyForm key={`remove-${activity.ActivityID}`} activityId={activity.ActivityID} week={week} />}
          {timeslots.isPending && <Loading what="timeslots" />}
          {timeslots.isError && <ErrorState error={timeslots.error} />}
          {timeslots.data && (
            <div className="week">
              {days.map((day) => {
                const slots = timeslots.data.filter((s) => s.Date === day);
                return (
                  <section key={day} className="day" aria-label={day}>
                    <h2>{weekdayLabel(day)}</h2>
                    {slots.length === 0 ? (
                      <p className="muted">No timeslots</p>
                    ) : (
                      <ul className="slots">
                        {slots.map((s) => (
                          <Slot
                            key={`${s.TimeslotID}-${s.Capacity}`}
                            slot={s}
                            activityId={activityId!}
                            usualCapacity={activity?.MaxParticipants ?? s.Capacity}
                          />
                        ))}
                      </ul>
                    )}
                  </section>
                );
              })}
            </div>
          )}
        </>
      )}
    </div>
  );
}
