// New sale at the point of sale: activity, date, timeslot (with the places left), participants and the customer.
// The API decides: a full or closed timeslot comes back as a 409 whose detail is shown as it is.
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { today } from '../api/dates.js';
import { useActivities, useCreateSale, useTimeslots } from '../api/hooks.js';
import { useUrlState } from '../api/url-state.js';
import { ActivityPicker } from '../components/activity-picker.js';
import { Empty, ErrorState, Loading, problemDetail } from '../components/states.js';

const URL_STATE = ['ActivityID', 'Date', 'Time'] as const;

export function NewSalePage() {
  const [state, setState] = useUrlState(URL_STATE);
  const activities = useActivities();
  const activityId = state.ActivityID ?? activities.data?.[0]?.ActivityID;
  const date = state.Date ?? today();
  const timeslots = useTimeslots(activityId, date, date);
  const sale = useCreateSale();
  const [form, setForm] = useState({ Participants: '1', FirstName: '', LastName: '', Email: '', Phone: '', PaymentReference: '' });
  const [key, setKey] = useState(() => crypto.randomUUID());
  const field = (name: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value });
  const open = timeslots.data?.filter((s) => s.Status === 'open' && !s.Started) ?? [];
  const time = state.Time ?? open[0]?.Time;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!activityId || !time) return;
    sale.mutate(
      {
        idempotencyKey: key,
        sale: {
          ActivityID: activityId,
          Date: date,
          Time: time,
          Participants: Number(form.Participants),
          Customer: { FirstName: form.FirstName, LastName: form.LastName, Email: form.Email, ...(form.Phone ? { Phone: form.Phone } : {}) },
          ...(form.PaymentReference ? { PaymentReference: form.PaymentReference } : {}),
        },
      },
      // A new sale gets a new key; a failed one may be corrected and sent again under a new key as well.
      { onSettled: () => setKey(crypto.randomUUID()) },
    );
  };

  return (
    <div className="page">
      <div className="page-head">
        <h1>New sale</h1>
      </div>
      {activities.isPending && <Loading what="activities" />}
      {activities.isError && <ErrorState error={activities.error} />}
      {activities.data && activities.data.length === 0 && <Empty>No activities to sell.</Empty>}
      {activities.data && activities.data.length > 0 && (
        <form className="card sale-form" onSubmit={submit} aria-label="Point-of-sale sale">
          <div className="row">
            <ActivityPicker activities={activities.data} value={activityId} onChange={(id) => setState({ ActivityID: id, Time: null })} />
            <label>
              Date
              <input type="date" name="Date" required value={date} onChange={(e) => setState({ Date: e.target.value, Time: null })} />
            </label>
            <label>
              Timeslot
              <select name="Time" required value={time ?? ''} onChange={(e) => setState({ Time: e.target.value })} disabled={open.length === 0}>
                {open.length === 0 && <option value="">{timeslots.isPending ? 'Loading…' : 'No open timeslot'}</option>}
                {open.map((s) => (
                  <option key={s.TimeslotID} value={s.Time}>
                    {s.Time} — {s.Available} of {s.Capacity} left
                  </option>
                ))}
              </select>
            </label>
            <label>
              Participants
              <input type="number" name="Participants" min={1} required value={form.Participants} onChange={field('Participants')} />
            </label>
          </div>
          <div className="row">
            <label>
              First name
              <input name="FirstName" required value={form.FirstName} onChange={field('FirstName')} autoComplete="off" />
            </label>
            <label>
              Last name
              <input name="LastName" required value={form.LastName} onChange={field('LastName')} autoComplete="off" />
            </label>
            <label>
              E-mail
              <input type="email" name="Email" required value={form.Email} onChange={field('Email')} autoComplete="off" />
            </label>
            <label>
              Phone (optional)
              <input type="tel" name="Phone" value={form.Phone} onChange={field('Phone')} autoComplete="off" />
            </label>
            <label>
              Payment reference (optional)
              <input name="PaymentReference" value={form.PaymentReference} onChange={field('PaymentReference')} autoComplete="off" />
            </label>
          </div>
          {timeslots.isError && <ErrorState error={timeslots.error} />}
          {sale.isError && (
            <div className="state state-error" role="alert">
              <strong>Not sold</strong>
              <span className="detail">{problemDetail(sale.error)}</span>
            </div>
          )}
          {sale.isSuccess && sale.data && (
            <p className="state state-ok" role="status">
              Sold: booking <Link href={`/bookings?Open=${sale.data.Reference}`}>{sale.data.Reference}</Link> for {sale.data.Participants} on {sale.data.Date}{' '}
              at {sale.data.Time}.
            </p>
          )}
          <div>
            <button type="submit" disabled={sale.isPending || !time}>
              {sale.isPending ? 'Selling…' : 'Sell'}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
