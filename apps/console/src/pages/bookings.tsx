// Bookings of every channel: filters, keyset paging and the open booking live in the URL; the first page is polled so
// that new bookings (a partner's included) appear without a reload; CSV export of the same filters.
import { useEffect, useState, type FormEvent, type KeyboardEvent } from 'react';
import {
  BOOKING_CHANNEL_FILTERS,
  BOOKING_STATUSES,
  exportOperatorBookingsOperation,
  type BookingChannelFilter,
  type BookingListQuery,
  type OperatorBooking,
} from '@backbone/contracts/browser';
import { useAccountTime } from '../api/account-time.js';
import { operationUrl } from '../api/client.js';
import { formatMoney } from '../api/money.js';
import { AnswerValue } from '../components/answer-value.js';
import { BookingActions } from '../components/booking-actions.js';
import { BookingHistory } from '../components/booking-history.js';
import { PAYMENT_WORDS, STATUS_WORDS } from '../components/words.js';
import { customerName } from '../components/customer-inputs.js';
import { useActivities } from '../api/activities.hooks.js';
import { useBooking, useBookings } from '../api/bookings.hooks.js';
import { useUrlState } from '../api/url-state.js';
import { Empty, ErrorState, Loading } from '../components/states.js';

const FILTERS = ['From', 'To', 'Channel', 'Status', 'ActivityID', 'Test', 'Sort', 'Q'] as const;
const URL_STATE = [...FILTERS, 'Cursor', 'Open'] as const;

/** The channel; a partner's booking made through OCTO says so (its reference is the reseller's). */
/** The channels as the list's badges say them. */
const CHANNEL_WORDS: Record<BookingChannelFilter, string> = { ota: 'ota (partner API)', octo: 'OCTO', online: 'online', pos: 'pos' };

function ChannelBadge({ booking }: { booking: Pick<OperatorBooking, 'Channel' | 'Octo'> }) {
  return booking.Octo ? <span className="badge badge-ota">OCTO</span> : <span className={`badge badge-${booking.Channel}`}>{booking.Channel}</span>;
}

function BookingDetail({ reference, onClose }: { reference: string; onClose: () => void }) {
  const booking = useBooking(reference);
  const clock = useAccountTime();
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <aside className="detail-panel" aria-label={`Booking ${reference}`}>
      <div className="panel-head">
        <h2>Booking {reference}</h2>
        <button type="button" className="secondary" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
      {booking.isPending && <Loading what="the booking" />}
      {booking.isError && <ErrorState error={booking.error} />}
      {booking.data && (
        <>
          <dl className="facts">
            <dt>Customer</dt>
            <dd>{customerName(booking.data.Customer)}</dd>
            <dt>E-mail</dt>
            <dd>{booking.data.Customer.Email ?? '—'}</dd>
            <dt>Phone</dt>
            <dd>{booking.data.Customer.Phone ?? '—'}</dd>
            <dt>Activity</dt>
            <dd>
              {booking.data.ActivityName}, {booking.data.Date} {booking.data.Time}
            </dd>
            <dt>Participants</dt>
            <dd>{booking.data.Participants}</dd>
            <dt>Channel</dt>
            <dd>
              <ChannelBadge booking={booking.data} /> {booking.data.PartnerName ?? ''}
            </dd>
            <dt>{booking.data.Octo ? 'Reseller reference' : 'Payment reference'}</dt>
            <dd>{booking.data.PaymentReference ?? '—'}</dd>
            {booking.data.PaymentMethod !== null && (
              <>
                <dt>Paid by</dt>
                <dd>{PAYMENT_WORDS[booking.data.PaymentMethod]}</dd>
              </>
            )}
            <dt>Status</dt>
            <dd data-status={booking.data.Status}>{STATUS_WORDS[booking.data.Status]}</dd>
            {booking.data.CancellationReason !== null && (
              <>
                <dt>Cancellation reason</dt>
                <dd>{booking.data.CancellationReason}</dd>
              </>
            )}
            <dt>Price</dt>
            <dd data-price-total={booking.data.Price.TotalMinor}>
              {formatMoney(booking.data.Price.TotalMinor, booking.data.Price.Currency)}{' '}
              {booking.data.Price.Reason === null ? (
                <span className="muted">
                  ({booking.data.Participants} × {formatMoney(booking.data.Price.UnitPriceMinor, booking.data.Price.Currency)}
                  {booking.data.Price.Source === 'migration' ? ', the price when prices began to be recorded' : ''})
                </span>
              ) : (
                <span className="muted price-set">
                  set by hand, list {formatMoney(booking.data.Price.ListTotalMinor, booking.data.Price.Currency)}: “{booking.data.Price.Reason}”
                </span>
              )}
            </dd>
            <dt>Checked in</dt>
            <dd data-checked-in={booking.data.CheckedInAt ?? ''}>
              {booking.data.CheckedInAt
                ? `${booking.data.CheckedInParticipants < booking.data.Participants ? `${booking.data.CheckedInParticipants} of ${booking.data.Participants}, ` : ''}${clock.dateTime(booking.data.CheckedInAt)}`
                : 'Not yet'}
            </dd>
            <dt>Note</dt>
            <dd className="note">{booking.data.Note ?? '—'}</dd>
            <dt>Booked at</dt>
            <dd>
              <time dateTime={booking.data.CreatedAt}>{clock.dateTime(booking.data.CreatedAt)}</time>
            </dd>
          </dl>
          <BookingActions booking={booking.data} />
          <h3>Answers</h3>
          {booking.data.Answers.length === 0 ? (
            <Empty>No waiver answers.</Empty>
          ) : (
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
          )}
          <BookingHistory reference={reference} />
        </>
      )}
    </aside>
  );
}

function Filters({
  values,
  onChange,
}: {
  values: Partial<Record<(typeof FILTERS)[number], string>>;
  onChange: (changes: Record<string, string | null>) => void;
}) {
  const activities = useActivities();
  const [q, setQ] = useState(values.Q ?? '');
  useEffect(() => setQ(values.Q ?? ''), [values.Q]);
  const set = (name: string) => (event: { target: { value: string } }) => onChange({ [name]: event.target.value || null, Cursor: null });
  const search = (event: FormEvent) => {
    event.preventDefault();
    onChange({ Q: q.trim() || null, Cursor: null });
  };
  return (
    <form className="filters" onSubmit={search} role="search" aria-label="Filter bookings">
      <label>
        From
        <input type="date" name="From" value={values.From ?? ''} onChange={set('From')} />
      </label>
      <label>
        To
        <input type="date" name="To" value={values.To ?? ''} onChange={set('To')} />
      </label>
      <label>
        Channel
        <select name="Channel" value={values.Channel ?? ''} onChange={set('Channel')}>
          <option value="">All</option>
          {BOOKING_CHANNEL_FILTERS.map((c) => (
            <option key={c} value={c}>
              {CHANNEL_WORDS[c]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Status
        <select name="Status" value={values.Status ?? ''} onChange={set('Status')}>
          <option value="">All</option>
          {BOOKING_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label>
        Activity
        <select name="ActivityID" value={values.ActivityID ?? ''} onChange={set('ActivityID')}>
          <option value="">All</option>
          {activities.data?.map((a) => (
            <option key={a.ActivityID} value={a.ActivityID}>
              {a.Name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Bookings
        {/* The partners' sandbox: test keys' bookings are shown only here, never among the live ones. */}
        <select name="Test" value={values.Test ?? ''} onChange={set('Test')}>
          <option value="">Live</option>
          <option value="true">Test bookings</option>
        </select>
      </label>
      <label>
        Order
        <select name="Sort" value={values.Sort ?? ''} onChange={set('Sort')}>
          <option value="">Newest booked first</option>
          <option value="starts_at">By slot time</option>
        </select>
      </label>
      <label className="grow">
        Search
        <input type="search" name="Q" placeholder="Reference, name, e-mail, payment ref." value={q} onChange={(e) => setQ(e.target.value)} />
      </label>
      <button type="submit">Search</button>
    </form>
  );
}

export function BookingsPage() {
  const [state, setState] = useUrlState(URL_STATE);
  const { Open, Cursor, ...filters } = state;
  const query = { ...filters, ...(Cursor ? { Cursor } : {}) } as Partial<BookingListQuery>;
  // The export takes the list's filters, not its order: a spreadsheet sorts by any column.
  const { Sort, ...exported } = filters;
  const bookings = useBookings(query);
  const open = (reference: string) => setState({ Open: reference });
  const onRowKey = (reference: string) => (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      open(reference);
    }
  };
  return (
    <div className={Open ? 'page with-panel' : 'page'}>
      <div className="page-main">
        <div className="page-head">
          <h1>Bookings</h1>
          <a className="button secondary" href={operationUrl(exportOperatorBookingsOperation, { query: exported })} download>
            Export CSV
          </a>
        </div>
        <Filters values={filters} onChange={setState} />
        {bookings.isPending && <Loading what="bookings" />}
        {bookings.isError && <ErrorState error={bookings.error} />}
        {bookings.data && bookings.data.Bookings.length === 0 && <Empty>No bookings match these filters.</Empty>}
        {bookings.data && bookings.data.Bookings.length > 0 && (
          <table className="table bookings-table">
            <thead>
              <tr>
                <th scope="col">Reference</th>
                <th scope="col">Channel</th>
                <th scope="col">Status</th>
                <th scope="col">Activity</th>
                <th scope="col">When</th>
                <th scope="col">Customer</th>
                <th scope="col">Pax</th>
                <th scope="col">Payment reference</th>
              </tr>
            </thead>
            <tbody>
              {bookings.data.Bookings.map((b) => (
                <tr
                  key={b.Reference}
                  tabIndex={0}
                  onClick={() => open(b.Reference)}
                  onKeyDown={onRowKey(b.Reference)}
                  aria-selected={Open === b.Reference}
                  data-reference={b.Reference}
                >
                  <td data-label="Reference" className="mono">
                    {b.Reference}
                  </td>
                  <td data-label="Channel">
                    <ChannelBadge booking={b} />
                    {b.PartnerName && <span className="partner">{b.PartnerName}</span>}
                  </td>
                  <td data-label="Status">
                    <span className={`status status-${b.Status}`}>{STATUS_WORDS[b.Status]}</span>
                  </td>
                  <td data-label="Activity">{b.ActivityName}</td>
                  <td data-label="When" className="when">
                    {b.Date} {b.Time}
                  </td>
                  <td data-label="Customer" className="customer">
                    {customerName(b.Customer)}
                  </td>
                  <td data-label="Pax">{b.Participants}</td>
                  <td data-label="Payment reference" className="mono payment-reference">
                    {b.PaymentReference ?? '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <div className="pager">
          <button type="button" className="secondary" disabled={!Cursor} onClick={() => setState({ Cursor: null })}>
            {Sort ? 'Earliest' : 'Newest'}
          </button>
          <button type="button" className="secondary" disabled={!bookings.data?.Next} onClick={() => setState({ Cursor: bookings.data?.Next ?? null })}>
            {Sort ? 'Later' : 'Older'}
          </button>
        </div>
      </div>
      {Open && (
        <BookingDetail
          reference={Open}
          onClose={() => {
            setState({ Open: null });
            // Back to the row the panel was opened from, for keyboard users.
            document.querySelector<HTMLElement>(`tr[data-reference="${Open}"]`)?.focus();
          }}
        />
      )}
    </div>
  );
}
