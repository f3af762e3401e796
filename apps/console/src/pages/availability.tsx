// Availability: one week of one activity, each timeslot with a booked/capacity bar; close, reopen, change capacity.
// The activity and the week live in the URL. The API refuses a capacity below what is booked; its detail is shown.
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import type { OperatorTimeslot } from '@backbone/contracts/browser';
import { addDays, mondayOf, today, weekdayLabel } from '../api/dates.js';
import { useActivities } from '../api/activities.hooks.js';
import { useGenerateTimeslots, useTimeslotChange, useTimeslots } from '../api/availability.hooks.js';
import { useMay } from '../api/session.hooks.js';
import { useUrlState } from '../api/url-state.js';
import { ActivityPicker } from '../components/activity-picker.js';
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
      aria-valuenow={slot.Booked}
      aria-label={`${slot.Booked} of ${slot.Capacity} booked`}
    >
      {/* React sets this through the CSSOM, which the CSP's style-src 'self' allows (only inline style markup is refused). */}
      <div className={share >= 1 ? 'bar-fill full' : 'bar-fill'} style={{ width: `${Math.round(share * 100)}%` }} />
    </div>
  );
}

function Slot({ slot, activityId }: { slot: OperatorTimeslot; activityId: string }) {
  const change = useTimeslotChange();
  const may = useMay();
  const [capacity, setCapacity] = useState(String(slot.Capacity));
  const save = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ timeslotId: slot.TimeslotID, action: 'capacity', capacity: Number(capacity) });
  };
  return (
    <li className={`slot slot-${slot.Status}${slot.Started ? ' slot-started' : ''}`} data-timeslot={slot.TimeslotID} aria-label={`${slot.Date} ${slot.Time}`}>
      <div className="slot-head">
        <strong>{slot.Time}</strong>
        <span className="slot-count">
          {slot.Booked}/{slot.Capacity}
        </span>
        {slot.Status === 'closed' && <span className="tag">closed</span>}
        <Link className="slot-manifest" href={`/manifest?Date=${slot.Date}&ActivityID=${activityId}`} aria-label={`Manifest of ${slot.Date} ${slot.Time}`}>
          Manifest
        </Link>
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
              onChange={(e) => setCapacity(e.target.value)}
              aria-label={`Capacity of ${slot.Date} ${slot.Time}`}
            />
            <button type="submit" className="secondary small" disabled={change.isPending || capacity === String(slot.Capacity)}>
              Set
            </button>
          </form>
          {slot.Status === 'open' ? (
            <button
              type="button"
              className="secondary small"
              onClick={() => change.mutate({ timeslotId: slot.TimeslotID, action: 'close' })}
              disabled={change.isPending}
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
      {change.isError && (
        <p className="form-error" role="alert">
          {problemDetail(change.error)}
        </p>
      )}
    </li>
  );
}

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** Timeslots from a weekly pattern, as the admin CLI makes them; existing ones are kept. */
function GenerateForm({ activityId, week, capacity }: { activityId: string; week: string; capacity: number }) {
  const generate = useGenerateTimeslots();
  // The capacity starts at the activity's own (a 6-player room gets 6-place slots unless the owner says otherwise).
  const [form, setForm] = useState({ From: week, To: addDays(week, 27), Times: '09:00, 14:00', Capacity: String(capacity) });
  const [days, setDays] = useState<(typeof WEEKDAYS)[number][]>(['sat', 'sun']);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const times = form.Times.split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '');
    generate.mutate({ activityId, pattern: { From: form.From, To: form.To, Days: days, Times: times, Capacity: Number(form.Capacity) } });
  };
  const toggle = (day: (typeof WEEKDAYS)[number]) => setDays(days.includes(day) ? days.filter((d) => d !== day) : [...days, day]);
  return (
    <details className="card generate">
      <summary>Generate timeslots from a weekly pattern</summary>
      <form onSubmit={submit} className="row" aria-label="Generate timeslots">
        <label>
          From
          <input type="date" required value={form.From} onChange={(e) => setForm({ ...form, From: e.target.value })} />
        </label>
        <label>
          To
          <input type="date" required value={form.To} onChange={(e) => setForm({ ...form, To: e.target.value })} />
        </label>
        <fieldset className="scopes">
          <legend>Days</legend>
          {WEEKDAYS.map((day) => (
            <label key={day} className="check">
              <input type="checkbox" checked={days.includes(day)} onChange={() => toggle(day)} /> {day}
            </label>
          ))}
        </fieldset>
        <label>
          Times
          <input required value={form.Times} onChange={(e) => setForm({ ...form, Times: e.target.value })} />
        </label>
        <label>
          Capacity
          <input type="number" min={0} required value={form.Capacity} onChange={(e) => setForm({ ...form, Capacity: e.target.value })} />
        </label>
        <button type="submit" disabled={generate.isPending || days.length === 0}>
          Generate
        </button>
      </form>
      {generate.isError && (
        <p className="form-error" role="alert">
          {problemDetail(generate.error)}
        </p>
      )}
      {generate.data && (
        <p className="state state-ok" role="status">
          {generate.data.Created} created, {generate.data.Existing} already there
          {generate.data.Skipped.length ? `, ${generate.data.Skipped.length} skipped (daylight-saving gap)` : ''}.
        </p>
      )}
    </details>
  );
}

export function AvailabilityPage() {
  const [state, setState] = useUrlState(URL_STATE);
  const activities = useActivities();
  const may = useMay();
  const activityId = state.ActivityID ?? activities.data?.[0]?.ActivityID;
  const activity = activities.data?.find((a) => a.ActivityID === activityId);
  const week = mondayOf(state.Week ?? today());
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
                ← Previous week
              </button>
              <span className="week-label">Week of {weekdayLabel(week)}</span>
              <button type="button" className="secondary" onClick={() => setState({ Week: addDays(week, 7) })}>
                Next week →
              </button>
            </div>
          </div>
          {activity && may('generateTimeslots') && (
            <GenerateForm key={activity.ActivityID} activityId={activity.ActivityID} week={week} capacity={activity.MaxParticipants} />
          )}
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
                          <Slot key={`${s.TimeslotID}-${s.Capacity}`} slot={s} activityId={activityId!} />
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
