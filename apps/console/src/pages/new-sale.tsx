// New sale at the point of sale: activity, date, timeslot (with the places left), participants and the customer.
// The API decides: a full or closed timeslot comes back as a 409 whose detail is shown as it is. The total is shown
// before selling; the activity's waiver questions are filled in with the guest (the e-mail is optional: a walk-in may
// give none, and then gets no e-mail); after "Sold" the customer and the answers are cleared so that the next click cannot sell to them again.
import { useRef, useState, type FormEvent } from 'react';
import { CustomerInputs } from '../components/customer-inputs.js';
import { Link } from 'wouter';
import { useAccountTime } from '../api/account-time.js';
import { PAYMENT_METHODS, type PaymentMethod } from '@backbone/contracts/browser';
import { countOf, PAYMENT_WORDS } from '../components/words.js';

const isPaymentMethod = (value: string): value is PaymentMethod => (PAYMENT_METHODS as readonly string[]).includes(value);
import { ApiProblem } from '../api/client.js';
import { formatMoney } from '../api/money.js';
import { useActivities, useQuestions } from '../api/activities.hooks.js';
import { useTimeslots } from '../api/availability.hooks.js';
import { useCreateSale } from '../api/bookings.hooks.js';
import { useUrlState } from '../api/url-state.js';
import { ActivityPicker } from '../components/activity-picker.js';
import { Empty, ErrorState, FieldError, Loading, problemDetail } from '../components/states.js';
import { waiverAnswers, WaiverInputs, waiverUploading, type WaiverDraft } from '../components/waiver-inputs.js';
import { LIST_PRICE_DRAFT, priceAsked, PriceInputs, type PriceDraft } from '../components/price-inputs.js';
import { useGrant } from '../api/session.hooks.js';

const URL_STATE = ['ActivityID', 'Date', 'Time'] as const;
const EMPTY_FORM = { Participants: '1', FirstName: '', LastName: '', Email: '', Phone: '', PaymentReference: '', PaymentMethod: '' };

export function NewSalePage() {
  const [state, setState] = useUrlState(URL_STATE);
  const activities = useActivities();
  const activityId = state.ActivityID ?? activities.data?.[0]?.ActivityID;
  const clock = useAccountTime();
  const date = state.Date ?? clock.today();
  const timeslots = useTimeslots(activityId, date, date);
  const sale = useCreateSale();
  const [form, setForm] = useState(EMPTY_FORM);
  const questions = useQuestions(activityId);
  const [waiver, setWaiver] = useState<WaiverDraft>({});
  const [price, setPrice] = useState<PriceDraft>(LIST_PRICE_DRAFT);
  const has = useGrant();
  // One Idempotency-Key per attempt: a second submit of the same attempt (a double click, a retry after a lost
  // answer) is the same sale to the API. The in-flight ref also stops a second submit before React disables the button.
  const attemptKey = useRef<string | null>(null);
  const inFlight = useRef(false);
  const field = (name: keyof typeof form) => (event: { target: { value: string } }) => {
    attemptKey.current = null;
    setForm({ ...form, [name]: event.target.value });
  };
  const open = timeslots.data?.filter((s) => s.Status === 'open' && !s.Started) ?? [];
  const time = state.Time ?? open[0]?.Time;
  const activity = activities.data?.find((a) => a.ActivityID === activityId);
  const participants = Number(form.Participants);
  // The limits the API would refuse a sale for, said before it is sent: the activity's party size, the places left.
  const left = open.find((s) => s.Time === time)?.Available;
  const overLimit =
    activity && participants > activity.MaxParticipants
      ? `At most ${activity.MaxParticipants} per booking for this activity.`
      : left !== undefined && participants > left
        ? `Only ${left} ${left === 1 ? 'place' : 'places'} left at ${time}.`
        : null;
  // Past the places left (not the party size): an owner may sell anyway, once confirmed; staff see the refusal only.
  const slot = open.find((s) => s.Time === time);
  const overBy = slot && activity && participants <= activity.MaxParticipants && participants > slot.Available ? participants - slot.Available : 0;
  const mayOverbook = overBy > 0 && has('overbook');
  const [confirmingOverbook, setConfirmingOverbook] = useState(false);
  const partyOk = activity !== undefined && Number.isInteger(participants) && participants > 0 && (overLimit === null || mayOverbook);
  const listTotal = activity ? participants * activity.Price.Amount : 0;
  const asked = activity ? priceAsked(price, listTotal, activity.Price.Currency, has) : null;
  const uploading = waiverUploading(waiver);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Enter in a field past the places left asks the owner first, as the button does.
    if (mayOverbook) setConfirmingOverbook(true);
    else sell(false);
  };
  const sell = (overbook: boolean) => {
    setConfirmingOverbook(false);
    if (!activityId || !time || inFlight.current || uploading) return;
    inFlight.current = true;
    attemptKey.current ??= crypto.randomUUID();
    sale.mutate(
      {
        idempotencyKey: attemptKey.current,
        sale: {
          ActivityID: activityId,
          Date: date,
          Time: time,
          Participants: Number(form.Participants),
          Customer: {
            FirstName: form.FirstName,
            LastName: form.LastName,
            ...(form.Email ? { Email: form.Email } : {}),
            ...(form.Phone ? { Phone: form.Phone } : {}),
          },
          // Sent only when the activity asks something: then the guest's answers are the booking's waiver.
          ...(questions.data && questions.data.length > 0 ? { Answers: waiverAnswers(questions.data, waiver, participants) } : {}),
          ...(form.PaymentReference ? { PaymentReference: form.PaymentReference } : {}),
          ...(isPaymentMethod(form.PaymentMethod) ? { PaymentMethod: form.PaymentMethod } : {}),
          ...(asked?.override ? { PriceOverride: asked.override } : {}),
          ...(overbook ? { Overbook: true } : {}),
        },
      },
      {
        onSuccess: () => {
          attemptKey.current = null;
          setForm(EMPTY_FORM);
          setWaiver({});
          setPrice(LIST_PRICE_DRAFT);
        },
        // A refused sale is corrected and sent again as a new attempt; without an answer it is the same attempt.
        onError: (error) => {
          if (error instanceof ApiProblem) attemptKey.current = null;
        },
        onSettled: () => {
          inFlight.current = false;
        },
      },
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
            <div className="field">
              <label>
                Participants
                <input
                  type="number"
                  name="Participants"
                  min={1}
                  max={activity?.MaxParticipants}
                  required
                  value={form.Participants}
                  onChange={field('Participants')}
                  aria-invalid={overLimit !== null}
                  aria-describedby="participants-limit"
                />
              </label>
              <span id="participants-limit" className={overLimit ? 'field-error' : 'hint'} role={overLimit ? 'alert' : undefined}>
                {overLimit ?? (activity ? `At most ${activity.MaxParticipants} per booking${left !== undefined ? `; ${left} left` : ''}.` : '')}
              </span>
              <FieldError error={sale.error} field="Participants" />
            </div>
          </div>
          <div className="row">
            <CustomerInputs values={form} field={field} emailRequired={false} />
            <label>
              Paid by
              <select name="PaymentMethod" value={form.PaymentMethod} onChange={field('PaymentMethod')}>
                <option value="">Not said</option>
                {PAYMENT_METHODS.map((m) => (
                  <option key={m} value={m}>
                    {PAYMENT_WORDS[m]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Payment reference (optional)
              <input name="PaymentReference" value={form.PaymentReference} onChange={field('PaymentReference')} autoComplete="off" />
            </label>
          </div>
          {activity && asked && partyOk && (
            <PriceInputs
              draft={price}
              onChange={(next) => {
                attemptKey.current = null;
                setPrice(next);
              }}
              listTotalMinor={listTotal}
              currency={activity.Price.Currency}
              asked={asked}
            />
          )}
          {questions.data && (
            <WaiverInputs
              questions={questions.data}
              participants={participants}
              draft={waiver}
              onChange={(key, value) => {
                attemptKey.current = null;
                // An upload answers later: the draft as it is then, not as it was when the file was chosen.
                setWaiver((current) => ({ ...current, [key]: value }));
              }}
            />
          )}
          {questions.isError && <ErrorState error={questions.error} />}
          {timeslots.isError && <ErrorState error={timeslots.error} />}
          {sale.isError && (
            <div className="state state-error" role="alert">
              <strong>Not sold</strong>
              <span className="detail">{problemDetail(sale.error, ['Participants']) || 'See the participants above.'}</span>
            </div>
          )}
          {sale.isSuccess && sale.data && (
            <p className="state state-ok" role="status">
              Sold: booking <Link href={`/bookings?Open=${sale.data.Reference}`}>{sale.data.Reference}</Link> for {sale.data.Participants} on {sale.data.Date}{' '}
              at {sale.data.Time}.
            </p>
          )}
          <div className="sale-submit">
            {activity && partyOk && asked && asked.totalMinor !== null && (
              <p className="sale-total" data-total-minor={asked.totalMinor}>
                Total <strong>{formatMoney(asked.totalMinor, activity.Price.Currency)}</strong>{' '}
                <span className="muted">
                  {asked.totalMinor === listTotal
                    ? `(${participants} × ${formatMoney(activity.Price.Amount, activity.Price.Currency)})`
                    : `(list ${formatMoney(listTotal, activity.Price.Currency)})`}
                </span>
              </p>
            )}
            {mayOverbook ? (
              <button
                type="button"
                className="danger"
                aria-expanded={confirmingOverbook}
                disabled={sale.isPending || uploading || (asked?.error ?? null) !== null}
                onClick={() => setConfirmingOverbook(true)}
              >
                Sell anyway (overbook by {overBy})
              </button>
            ) : (
              <button type="submit" disabled={sale.isPending || uploading || !time || overLimit !== null || (asked?.error ?? null) !== null}>
                {sale.isPending ? 'Selling…' : uploading ? 'Uploading…' : 'Sell'}
              </button>
            )}
          </div>
          {mayOverbook && confirmingOverbook && slot && (
            <div className="confirm" role="alertdialog" aria-label={`Overbook ${slot.Time} by ${overBy}?`}>
              <p>
                {slot.Time} has {slot.Available === 0 ? 'no places' : `only ${countOf(slot.Available, 'place')}`} left of {slot.Capacity}. Selling{' '}
                {countOf(participants, 'place')} puts it at {slot.Booked + participants}/{slot.Capacity}, {overBy} past its capacity; partners and the booking
                page still see no places. The audit log records it.
              </p>
              <div className="action-row">
                <button type="button" className="danger small" onClick={() => sell(true)} autoFocus>
                  Overbook by {overBy}
                </button>
                <button type="button" className="secondary small" onClick={() => setConfirmingOverbook(false)}>
                  Keep within capacity
                </button>
              </div>
            </div>
          )}
        </form>
      )}
    </div>
  );
}
