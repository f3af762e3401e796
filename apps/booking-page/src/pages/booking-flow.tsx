// The booking of one activity, in three steps on one page: choose the party, date and time (Continue holds the
// places), fill in the details (Book confirms the hold), then the confirmation; or, for a time too full for the party,
// join its waitlist. Each step moves the focus to its
// heading, so a screen reader hears where it is.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem } from '../api.js';
import { localeOf } from '../page-data.js';
import { activityPath, navigate } from '../route.js';
import { holdPath, shop, type ShopActivityDetails, type ShopBooking, type ShopPage } from '../shop.js';
import { Field, controlProps } from '../components/field.js';
import { SlotPicker } from '../components/slot-picker.js';
import { ErrorMessage } from '../components/states.js';
import { DetailsForm, type HeldChoice } from './details-form.js';
import { Confirmation } from './confirmation.js';
import { WaitlistForm } from './waitlist-form.js';

interface FlowProps {
  slug: string;
  page: ShopPage;
  activity: ShopActivityDetails;
  initialDate: string | null;
}

export function BookingFlow({ slug, page, activity, initialDate }: FlowProps) {
  const locale = { ...localeOf(page), currency: activity.Price.Currency };
  const min = Math.max(1, activity.MinParticipants);
  const [participants, setParticipants] = useState(min);
  const [date, setDate] = useState(initialDate);
  const [time, setTime] = useState<string | null>(null);
  const [hold, setHold] = useState<HeldChoice | null>(null);
  const [booking, setBooking] = useState<ShopBooking | null>(null);
  const [holding, setHolding] = useState(false);
  const [problem, setProblem] = useState<unknown>(null);
  const [notice, setNotice] = useState('');
  // A timeslot too full for the party whose waitlist the customer is joining.
  const [waiting, setWaiting] = useState<{ Date: string; Time: string } | null>(null);
  // Bumped to load the timeslots again after a conflict (someone took the places first).
  const [pickerKey, setPickerKey] = useState(0);

  // Places held and left behind (the customer goes back or leaves) are given back at once, not after the hold ends.
  const heldRef = useRef<HeldChoice | null>(null);
  heldRef.current = booking ? null : hold;
  useEffect(() => {
    const release = () => {
      // keepalive: the request outlives the page (sendBeacon can only POST).
      if (heldRef.current) void fetch(holdPath(slug, heldRef.current.Token), { method: 'DELETE', keepalive: true }).catch(() => undefined);
    };
    addEventListener('pagehide', release);
    return () => removeEventListener('pagehide', release);
  }, [slug]);

  const chooseDate = (chosen: string) => {
    setDate(chosen);
    setTime(null);
    navigate(activityPath(slug, activity.ActivityID, chosen), true);
  };

  const holdPlaces = async () => {
    if (!date || !time) return;
    setHolding(true);
    setProblem(null);
    try {
      const held = await shop.hold(slug, { ActivityID: activity.ActivityID, Date: date, Time: time, Participants: participants });
      setHold({ Token: held.Token, ExpiresAt: held.Booking.ExpiresAt ?? new Date().toISOString(), Date: date, Time: time, Participants: participants });
    } catch (error) {
      setProblem(error);
      if (error instanceof ApiProblem && error.status === 409) {
        setTime(null);
        setPickerKey((k) => k + 1);
      }
    } finally {
      setHolding(false);
    }
  };

  const changeChoice = (message = '') => {
    const held = hold;
    setHold(null);
    setNotice(message);
    setPickerKey((k) => k + 1);
    if (held) shop.release(slug, held.Token).catch(() => undefined);
  };

  if (booking && hold) return <Confirmation slug={slug} token={hold.Token} locale={locale} activity={activity} booking={booking} />;
  if (hold)
    return (
      <DetailsForm
        slug={slug}
        page={page}
        locale={locale}
        activity={activity}
        hold={hold}
        onChange={() => changeChoice()}
        onExpired={() => changeChoice('Your hold ended and the places were given back. Choose a time again.')}
        onBooked={setBooking}
      />
    );

  if (waiting)
    return (
      <WaitlistForm
        slug={slug}
        locale={locale}
        activity={activity}
        slot={waiting}
        participants={participants}
        onBack={() => {
          setWaiting(null);
          setPickerKey((k) => k + 1);
        }}
      />
    );

  const options = [];
  for (let n = min; n <= activity.MaxParticipants; n++) options.push(n);
  return (
    <div class="step">
      {notice ? (
        <p class="notice" role="alert">
          {notice}
        </p>
      ) : null}
      <Field id="participants" label="Participants" hint={`From ${min} to ${activity.MaxParticipants} per booking.`}>
        <select
          {...controlProps('participants', 'hint', undefined)}
          value={String(participants)}
          onChange={(e) => {
            setParticipants(Number(e.currentTarget.value));
            setTime(null);
          }}
        >
          {options.map((n) => (
            <option key={n} value={String(n)}>
              {n}
            </option>
          ))}
        </select>
      </Field>
      <SlotPicker
        key={pickerKey}
        slug={slug}
        activityId={activity.ActivityID}
        locale={locale}
        date={date}
        time={time}
        needed={participants}
        onDate={chooseDate}
        onTime={(slot) => setTime(slot.Time)}
        onWaitlist={(slot) => date && setWaiting({ Date: date, Time: slot.Time })}
      />
      {problem ? <ErrorMessage error={problem} /> : null}
      <div class="actions">
        <button type="button" class="primary" disabled={!date || !time || holding} onClick={() => void holdPlaces()}>
          {holding ? 'Holding your places…' : 'Continue'}
        </button>
        {!time ? <p class="hint">Choose a date and a time to continue.</p> : null}
      </div>
    </div>
  );
}
