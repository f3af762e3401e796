// The booking is made: its reference, what was booked, and the link that manages it (cancel, move).
import { useEffect, useRef } from 'preact/hooks';
import { formatDate, formatMoney, formatTime, type Locale } from '../format.js';
import { managePath, onLinkClick } from '../route.js';
import type { ShopActivityDetails, ShopBooking } from '../shop.js';

export function Confirmation({
  slug,
  token,
  locale,
  activity,
  booking,
}: {
  slug: string;
  token: string;
  locale: Locale;
  activity: ShopActivityDetails;
  booking: ShopBooking;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section class="step confirmation" aria-labelledby="confirmed-heading">
      <h2 id="confirmed-heading" ref={heading} tabIndex={-1}>
        Booking confirmed
      </h2>
      <p>
        Your reference is <strong class="reference">{booking.Reference}</strong>. Keep it, and the link below, to change or cancel your booking.
      </p>
      <BookingFacts locale={locale} booking={booking} activityName={activity.Name} />
      <p class="pay-note">Paid at the venue: nothing has been charged.</p>
      <p>
        <a class="button" href={managePath(slug, token)} onClick={onLinkClick}>
          Manage your booking
        </a>
      </p>
    </section>
  );
}

export function BookingFacts({ locale, booking, activityName }: { locale: Locale; booking: ShopBooking; activityName: string }) {
  return (
    <dl class="facts-list">
      <dt>Activity</dt>
      <dd>{activityName}</dd>
      <dt>When</dt>
      <dd>
        {formatDate(booking.Date, locale)}, {formatTime(booking.Time, locale)}
      </dd>
      <dt>Participants</dt>
      <dd>{booking.Participants}</dd>
      <dt>Name</dt>
      <dd>
        {booking.Customer.FirstName} {booking.Customer.LastName}
      </dd>
      <dt>Total</dt>
      <dd>{formatMoney(booking.Price.TotalAmount, { ...locale, currency: booking.Price.Currency })}</dd>
    </dl>
  );
}
