// The owner's schedule forms under Availability: generate timeslots from a weekly pattern and remove empty ones. Each
// asks the API for a dry run first and shows what would happen (how many, the first dates, the clashes with existing
// timeslots, the ones kept for their bookings); only the second button changes anything. No weekday starts ticked.
import { useState, type FormEvent } from 'react';
import type { EmptyTimeslotsRange, TimeslotPattern } from '@backbone/contracts/browser';
import { addDays, weekdayLabel } from '../api/dates.js';
import { useGenerateTimeslots, useRemoveEmptyTimeslots } from '../api/availability.hooks.js';
import { problemDetail } from './states.js';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
type Weekday = (typeof WEEKDAYS)[number];
const WEEKDAY_WORDS: Record<Weekday, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };
const SHOWN = 5;

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
const slotWords = (slots: readonly { Date: string; Time: string }[]) =>
  slots
    .slice(0, SHOWN)
    .map((s) => `${weekdayLabel(s.Date)} ${s.Time}`)
    .join(', ') + (slots.length > SHOWN ? `, and ${slots.length - SHOWN} more` : '');

const timesOf = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');

function DayPicker({ days, onChange, legend }: { days: readonly Weekday[]; onChange: (days: Weekday[]) => void; legend: string }) {
  const toggle = (day: Weekday) => onChange(days.includes(day) ? days.filter((d) => d !== day) : [...days, day]);
  return (
    <fieldset className="scopes">
      <legend>{legend}</legend>
      {WEEKDAYS.map((day) => (
        <label key={day} className="check">
          <input type="checkbox" checked={days.includes(day)} onChange={() => toggle(day)} /> {WEEKDAY_WORDS[day]}
        </label>
      ))}
    </fieldset>
  );
}

/** Timeslots from a weekly pattern, as the admin CLI makes them; existing ones are kept. */
export function GenerateForm({ activityId, week, capacity }: { activityId: string; week: string; capacity: number }) {
  const preview = useGenerateTimeslots();
  const make = useGenerateTimeslots();
  // The capacity starts at the activity's own (a 6-player room gets 6-place slots unless the owner says otherwise).
  const [form, setForm] = useState({ From: week, To: addDays(week, 27), Times: '', Capacity: String(capacity) });
  const [days, setDays] = useState<Weekday[]>([]);
  const pattern: TimeslotPattern = { From: form.From, To: form.To, Days: days, Times: timesOf(form.Times), Capacity: Number(form.Capacity) };
  // Any change makes the preview stale: it has to be asked for again before anything is made.
  const edit = (change: () => void) => {
    change();
    preview.reset();
    make.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    preview.mutate({ activityId, pattern: { ...pattern, DryRun: true } });
  };
  const planned = preview.data?.Preview ?? [];
  const fresh = planned.filter((t) => !t.Exists);
  const clashes = planned.filter((t) => t.Exists);
  return (
    <details className="card generate">
      <summary>Generate timeslots from a weekly pattern</summary>
      <form onSubmit={submit} className="row" aria-label="Generate timeslots">
        <DateRangeInputs range={form} onChange={(range) => edit(() => setForm({ ...form, ...range }))} />
        <DayPicker legend="Days" days={days} onChange={(d) => edit(() => setDays(d))} />
        <label>
          Times (e.g. 09:00, 14:00)
          <input name="Times" required value={form.Times} onChange={(e) => edit(() => setForm({ ...form, Times: e.target.value }))} />
        </label>
        <label>
          Capacity
          <input type="number" min={0} required value={form.Capacity} onChange={(e) => edit(() => setForm({ ...form, Capacity: e.target.value }))} />
        </label>
        <button type="submit" className="secondary" disabled={preview.isPending || days.length === 0}>
          Preview
        </button>
      </form>
      {days.length === 0 && <p className="hint">Tick the days the timeslots are on.</p>}
      {(preview.isError || make.isError) && (
        <p className="form-error" role="alert">
          {problemDetail(preview.error ?? make.error)}
        </p>
      )}
      {preview.data && !make.data && (
        <div className="preview" role="status" aria-label="Preview">
          <p>
            {fresh.length === 0 ? 'Nothing new to make.' : `${plural(fresh.length, 'new timeslot')}, first: ${slotWords(fresh)}.`}
            {clashes.length > 0 && ` ${plural(clashes.length, 'timeslot')} of the pattern exist already and stay as they are: ${slotWords(clashes)}.`}
            {preview.data.Skipped.length > 0 && ` ${plural(preview.data.Skipped.length, 'time')} skipped (a daylight-saving gap).`}
          </p>
          {fresh.length > 0 && (
            <button type="button" onClick={() => make.mutate({ activityId, pattern })} disabled={make.isPending}>
              Make {plural(fresh.length, 'timeslot')}
            </button>
          )}
        </div>
      )}
      {make.data && (
        <p className="state state-ok" role="status">
          {make.data.Created} made, {make.data.Existing} already there. To undo, remove the empty timeslots of these dates below.
        </p>
      )}
    </details>
  );
}

/** Removes the timeslots that no booking names, in a range (and on some weekdays or times only), after a preview. */
export function RemoveEmptyForm({ activityId, week }: { activityId: string; week: string }) {
  const preview = useRemoveEmptyTimeslots();
  const remove = useRemoveEmptyTimeslots();
  const [form, setForm] = useState({ From: week, To: addDays(week, 6), Times: '' });
  const [days, setDays] = useState<Weekday[]>([]);
  const range: EmptyTimeslotsRange = { From: form.From, To: form.To, Days: days, Times: timesOf(form.Times) };
  const edit = (change: () => void) => {
    change();
    preview.reset();
    remove.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    preview.mutate({ activityId, range: { ...range, DryRun: true } });
  };
  const found = preview.data?.Timeslots ?? [];
  return (
    <details className="card generate">
      <summary>Remove empty timeslots</summary>
      <form onSubmit={submit} className="row" aria-label="Remove empty timeslots">
        <DateRangeInputs range={form} onChange={(range) => edit(() => setForm({ ...form, ...range }))} />
        <DayPicker legend="Only on (none: every day)" days={days} onChange={(d) => edit(() => setDays(d))} />
        <label>
          Only at (none: every time)
          <input name="Times" value={form.Times} onChange={(e) => edit(() => setForm({ ...form, Times: e.target.value }))} />
        </label>
        <button type="submit" className="secondary" disabled={preview.isPending}>
          Preview
        </button>
      </form>
      {(preview.isError || remove.isError) && (
        <p className="form-error" role="alert">
          {problemDetail(preview.error ?? remove.error)}
        </p>
      )}
      {preview.data && !remove.data && (
        <div className="preview" role="status" aria-label="Preview">
          <p>
            {found.length === 0 ? 'No empty timeslots there.' : `${plural(found.length, 'empty timeslot')}: ${slotWords(found)}.`}
            {preview.data.Kept > 0 && ` ${plural(preview.data.Kept, 'timeslot')} with bookings stay.`}
          </p>
          {found.length > 0 && (
            <button type="button" className="danger" onClick={() => remove.mutate({ activityId, range })} disabled={remove.isPending}>
              Remove {plural(found.length, 'timeslot')}
            </button>
          )}
        </div>
      )}
      {remove.data && (
        <p className="state state-ok" role="status">
          {plural(remove.data.Removed, 'timeslot')} removed; {plural(remove.data.Kept, 'timeslot')} with bookings kept.
        </p>
      )}
    </details>
  );
}

/** The From and To dates both schedule forms start with. */
function DateRangeInputs({ range, onChange }: { range: { From: string; To: string }; onChange: (range: { From: string; To: string }) => void }) {
  return (
    <>
      <label>
        From
        <input type="date" required value={range.From} onChange={(e) => onChange({ ...range, From: e.target.value })} />
      </label>
      <label>
        To
        <input type="date" required value={range.To} onChange={(e) => onChange({ ...range, To: e.target.value })} />
      </label>
    </>
  );
}
