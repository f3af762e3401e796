// The booking panel's changes: check in (and undo), edit the party, customer and note, move to another timeslot (of the
// same activity, or of another when the customer changed their mind), cancel with a reason. Each is offered only when the user's role may call it and the booking is live;
// the API decides the rest (a full timeslot is a 409 whose detail is shown as it is).
import { useState, type FormEvent } from 'react';
import { CustomerInputs } from './customer-inputs.js';
import type { BookingDetail } from '@backbone/contracts/browser';
import { useActivities } from '../api/activities.hooks.js';
import { useTimeslots } from '../api/availability.hooks.js';
import { ActivityPicker } from './activity-picker.js';
import { formatMoney } from '../api/money.js';
import { useBookingAction, type BookingAction } from '../api/bookings.hooks.js';
import { useGrant, useMay } from '../api/session.hooks.js';
import { priceAsked, priceDraftOf, PriceInputs } from './price-inputs.js';
import { problemDetail } from './states.js';
import { useQuestions } from '../api/activities.hooks.js';
import { draftOf, waiverAnswers, WaiverInputs, waiverUploading, type WaiverDraft } from './waiver-inputs.js';

type Form = 'edit' | 'reschedule' | 'cancel' | null;

export function BookingActions({ booking }: { booking: BookingDetail }) {
  const may = useMay();
  const action = useBookingAction(booking.Reference);
  const [form, setForm] = useState<Form>(null);
  const live = booking.Status === 'confirmed' || booking.Status === 'on_hold';
  const checkedIn = booking.CheckedInAt !== null;
  if (!live) return null;
  const run = (change: BookingAction) => action.mutate(change, { onSuccess: () => setForm(null) });
  const toggle = (next: Form) => {
    action.reset();
    setForm(form === next ? null : next);
  };
  return (
    <section className="booking-actions" aria-label="Change the booking">
      <div className="action-row">
        {may(checkedIn ? 'undoOperatorCheckIn' : 'checkInOperatorBooking') && (
          // One button for both, never disabled: the focus stays on it while it turns from one into the other (a
          // disabled or replaced button drops the focus to the page's body).
          <button
            type="button"
            className={checkedIn ? 'secondary' : undefined}
            aria-disabled={action.isPending}
            onClick={() => action.isPending || run({ action: checkedIn ? 'undo-check-in' : 'check-in' })}
          >
            {checkedIn ? 'Undo check-in' : 'Check in'}
          </button>
        )}
        {may('changeOperatorBooking') && (
          <button type="button" className="secondary" aria-expanded={form === 'edit'} onClick={() => toggle('edit')}>
            Edit
          </button>
        )}
        {may('rescheduleOperatorBooking') && (
          <button type="button" className="secondary" aria-expanded={form === 'reschedule'} onClick={() => toggle('reschedule')}>
            Reschedule
          </button>
        )}
        {may('cancelOperatorBooking') && (
          <button type="button" className="secondary danger-text" aria-expanded={form === 'cancel'} onClick={() => toggle('cancel')}>
            Cancel booking
          </button>
        )}
      </div>
      {form === 'edit' && <EditForm booking={booking} pending={action.isPending} onSave={run} />}
      {form === 'reschedule' && <RescheduleForm booking={booking} pending={action.isPending} onSave={run} />}
      {form === 'cancel' && <CancelForm pending={action.isPending} onSave={run} />}
      {action.isError && (
        <p className="form-error" role="alert">
          {problemDetail(action.error)}
        </p>
      )}
    </section>
  );
}

function EditForm({ booking, pending, onSave }: { booking: BookingDetail; pending: boolean; onSave: (change: BookingAction) => void }) {
  const [draft, setDraft] = useState({
    Participants: String(booking.Participants),
    FirstName: booking.Customer.FirstName ?? '',
    LastName: booking.Customer.LastName ?? '',
    Email: booking.Customer.Email ?? '',
    Phone: booking.Customer.Phone ?? '',
    Note: booking.Note ?? '',
  });
  const field = (name: keyof typeof draft) => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });
  // The waiver: the stored answers to edit; sent only once touched, so that an edit of the note alone never fails on a
  // waiver still incomplete.
  const questions = useQuestions(booking.ActivityID);
  const [waiver, setWaiver] = useState<WaiverDraft>(() => draftOf(booking.Answers));
  const [waiverTouched, setWaiverTouched] = useState(false);
  const uploading = waiverUploading(waiver);
  // The price: a partner's booking keeps the partner's; a price set by hand is for a party, so it is shown again for the
  // new one (the API drops it when the party changes without one).
  const has = useGrant();
  const priced = booking.Channel !== 'ota';
  const [price, setPrice] = useState(() => priceDraftOf(booking.Price));
  const listTotal = booking.Price.UnitPriceMinor * Number(draft.Participants);
  const asked = priceAsked(price, listTotal, booking.Price.Currency, has);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if ((priced && asked.error) || uploading) return;
    // Only what changed is sent: the API checks room only for a larger party.
    const customer: Record<string, string | null> = {};
    for (const name of ['FirstName', 'LastName', 'Email', 'Phone'] as const) if (draft[name] !== (booking.Customer[name] ?? '')) customer[name] = draft[name];
    // An emptied phone field removes the number (the API takes null, never an empty number).
    if (customer.Phone !== undefined && draft.Phone.trim() === '') customer.Phone = null;
    const participants = Number(draft.Participants);
    const note = draft.Note.trim();
    const hadOverride = booking.Price.Reason !== null;
    const repriced = asked.override
      ? !hadOverride ||
        participants !== booking.Participants ||
        asked.override.TotalMinor !== booking.Price.TotalMinor ||
        asked.override.Reason !== booking.Price.Reason
      : hadOverride;
    onSave({
      action: 'change',
      changes: {
        ...(participants !== booking.Participants ? { Participants: participants } : {}),
        ...(Object.keys(customer).length ? { Customer: customer } : {}),
        ...(note !== (booking.Note ?? '') ? { Note: note === '' ? null : note } : {}),
        ...(waiverTouched && questions.data ? { Answers: waiverAnswers(questions.data, waiver, participants) } : {}),
        ...(priced && repriced ? { PriceOverride: asked.override ?? null } : {}),
      },
    });
  };
  return (
    <form className="panel-form" onSubmit={submit} aria-label="Edit the booking">
      <label>
        Participants
        <input type="number" name="Participants" min={1} required value={draft.Participants} onChange={field('Participants')} />
      </label>
      {/* The API removes no address: one the booking has stays required, one it lacks may be added. */}
      <CustomerInputs values={draft} field={field} emailRequired={booking.Customer.Email !== undefined} />
      <label>
        Note
        <textarea name="Note" rows={3} maxLength={2000} value={draft.Note} onChange={field('Note')} />
      </label>
      {questions.data && (
        <WaiverInputs
          questions={questions.data}
          participants={Number(draft.Participants)}
          draft={waiver}
          enforceRequired={waiverTouched}
          onChange={(key, value) => {
            setWaiverTouched(true);
            // An upload answers later: the draft as it is then, not as it was when the file was chosen.
            setWaiver((current) => ({ ...current, [key]: value }));
          }}
        />
      )}
      {priced && Number.isInteger(Number(draft.Participants)) && Number(draft.Participants) > 0 && (
        <PriceInputs draft={price} onChange={setPrice} listTotalMinor={listTotal} currency={booking.Price.Currency} asked={asked} />
      )}
      <button type="submit" disabled={pending || uploading || (priced && asked.error !== null)}>
        {uploading ? 'Uploading…' : 'Save changes'}
      </button>
    </form>
  );
}

function RescheduleForm({ booking, pending, onSave }: { booking: BookingDetail; pending: boolean; onSave: (change: BookingAction) => void }) {
  const activities = useActivities();
  const [activityId, setActivityId] = useState(booking.ActivityID);
  const [date, setDate] = useState(booking.Date);
  const [time, setTime] = useState<string | null>(null);
  const slots = useTimeslots(activityId, date, date);
  const same = activityId === booking.ActivityID;
  const open = slots.data?.filter((s) => s.Status === 'open' && !s.Started && !(same && s.Date === booking.Date && s.Time === booking.Time)) ?? [];
  const chosen = time ?? open.find((s) => s.Available >= booking.Participants)?.Time ?? open[0]?.Time;
  const other = same ? undefined : activities.data?.find((a) => a.ActivityID === activityId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen) onSave({ action: 'reschedule', date, time: chosen, ...(same ? {} : { activityId }) });
  };
  return (
    <form className="panel-form" onSubmit={submit} aria-label="Reschedule the booking">
      {activities.data && activities.data.length > 1 && (
        <ActivityPicker
          activities={activities.data}
          value={activityId}
          onChange={(id) => {
            setActivityId(id);
            setTime(null);
          }}
        />
      )}
      {other && (
        <p className="hint" role="status">
          Moving to another activity: the booking takes its price ({formatMoney(other.Price.Amount * booking.Participants, other.Price.Currency)} for{' '}
          {booking.Participants}), and the waiver answers, which were for this activity, are dropped.
        </p>
      )}
      <label>
        New date
        <input
          type="date"
          name="Date"
          required
          value={date}
          onChange={(e) => {
            setDate(e.target.value);
            setTime(null);
          }}
        />
      </label>
      <label>
        New time
        <select name="Time" required value={chosen ?? ''} onChange={(e) => setTime(e.target.value)} disabled={open.length === 0}>
          {open.length === 0 && <option value="">{slots.isPending ? 'Loading…' : 'No other open timeslot'}</option>}
          {open.map((s) => (
            <option key={s.TimeslotID} value={s.Time}>
              {s.Time} — {s.Available} of {s.Capacity} left
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={pending || !chosen}>
        Move booking
      </button>
    </form>
  );
}

function CancelForm({ pending, onSave }: { pending: boolean; onSave: (change: BookingAction) => void }) {
  const [reason, setReason] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave({ action: 'cancel', ...(reason.trim() ? { reason: reason.trim() } : {}) });
  };
  return (
    <form className="panel-form" onSubmit={submit} aria-label="Cancel the booking">
      <label>
        Reason (optional)
        <input name="Reason" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} autoComplete="off" />
      </label>
      <button type="submit" className="danger" disabled={pending}>
        Confirm cancel
      </button>
    </form>
  );
}
