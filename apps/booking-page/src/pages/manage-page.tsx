// The customer's own booking, opened by the manage link's token alone: see it, cancel it, or move it to another
// time of the same activity while the activity's rules allow (the server decides, and says why not).
import { useEffect, useRef, useState } from 'preact/hooks';
import { formatTime } from '../format.js';
import { useLoad } from '../load.js';
import { localeOf, useShopPage } from '../page-data.js';
import { shop, type ShopBooking } from '../shop.js';
import { Header } from '../components/header.js';
import { SlotPicker } from '../components/slot-picker.js';
import { ErrorMessage, isNotFound, Loading, NotFound } from '../components/states.js';
import { BookingFacts } from './confirmation.js';

export function ManagePageView({ slug, token }: { slug: string; token: string }) {
  const page = useShopPage(slug);
  const loaded = useLoad(() => shop.booking(slug, token), [slug, token]);
  const [booking, setBooking] = useState<ShopBooking | null>(null);
  useEffect(() => setBooking(loaded.data ?? null), [loaded.data]);
  if (page.loading || loaded.loading) return <Loading what="your booking" />;
  if (isNotFound(page.error) || isNotFound(loaded.error)) return <NotFound />;
  if (!page.data) return <ErrorMessage error={page.error} retry={page.reload} />;
  if (!booking) return <ErrorMessage error={loaded.error} retry={loaded.reload} />;
  return (
    <>
      <Header name={page.data.AccountName} slug={slug} />
      <main id="main" class="page">
        <h1>Your booking</h1>
        <Manage slug={slug} token={token} locale={localeOf(page.data)} booking={booking} onChanged={setBooking} />
      </main>
    </>
  );
}

type Mode = 'view' | 'cancel' | 'move';

function Manage({
  slug,
  token,
  locale,
  booking,
  onChanged,
}: {
  slug: string;
  token: string;
  locale: ReturnType<typeof localeOf>;
  booking: ShopBooking;
  onChanged: (booking: ShopBooking) => void;
}) {
  const [mode, setMode] = useState<Mode>('view');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<unknown>(null);
  const [message, setMessage] = useState('');
  const [date, setDate] = useState<string | null>(null);
  const [time, setTime] = useState<string | null>(null);
  const status = useRef<HTMLParagraphElement>(null);
  const bookingLocale = { ...locale, currency: booking.Price.Currency };
  const cancelled = booking.Status === 'cancelled';
  const changeable = booking.Status === 'confirmed' && Date.parse(booking.ChangeableUntil) > Date.now();

  const act = async (run: () => Promise<ShopBooking>, done: string) => {
    setBusy(true);
    setProblem(null);
    try {
      onChanged(await run());
      setMode('view');
      setMessage(done);
      setTimeout(() => status.current?.focus(), 0);
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="manage">
      <p>
        Reference <strong class="reference">{booking.Reference}</strong>
        {cancelled ? <span class="badge">Cancelled</span> : null}
      </p>
      <BookingFacts locale={bookingLocale} booking={booking} activityName={booking.ActivityName} />
      <p class="status-message" role="status" tabIndex={-1} ref={status}>
        {message}
      </p>
      {problem ? <ErrorMessage error={problem} /> : null}
      {cancelled ? <p>This booking is cancelled: its places are free again.</p> : null}
      {!cancelled && !changeable ? <p>This booking can no longer be changed online. Please contact us.</p> : null}
      {!cancelled && changeable && mode === 'view' ? (
        <div class="actions">
          <button type="button" class="secondary" onClick={() => (setMode('move'), setMessage(''), setDate(null), setTime(null))}>
            Move to another time
          </button>
          <button type="button" class="danger" onClick={() => (setMode('cancel'), setMessage(''))}>
            Cancel booking
          </button>
        </div>
      ) : null}
      {mode === 'cancel' ? (
        <div class="confirm-box" role="group" aria-labelledby="cancel-question">
          <p id="cancel-question">Cancel this booking? Its places are given back and this cannot be undone.</p>
          <div class="actions">
            <button type="button" class="danger" disabled={busy} onClick={() => void act(() => shop.cancel(slug, token), 'Your booking is cancelled.')}>
              Yes, cancel it
            </button>
            <button type="button" class="secondary" onClick={() => setMode('view')}>
              Keep my booking
            </button>
          </div>
        </div>
      ) : null}
      {mode === 'move' ? (
        <div class="move">
          <SlotPicker
            slug={slug}
            activityId={booking.ActivityID}
            locale={bookingLocale}
            date={date}
            time={time}
            needed={booking.Participants}
            near={booking.Date}
            onDate={(d) => (setDate(d), setTime(null))}
            onTime={(slot) => setTime(slot.Time)}
          />
          <div class="actions">
            <button
              type="button"
              class="primary"
              disabled={!date || !time || busy}
              onClick={() =>
                date && time && void act(() => shop.move(slug, token, { Date: date, Time: time }), `Your booking is moved to ${formatTime(time, locale)}.`)
              }
            >
              Move booking
            </button>
            <button type="button" class="secondary" onClick={() => setMode('view')}>
              Keep the current time
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
