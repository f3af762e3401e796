// A waitlist offer, opened by the claim link of its e-mail: the places held for the customer with the time left, and
// the details form (their contact filled in) whose Book claims them; or what became of the offer.
import { useState } from 'preact/hooks';
import { useLoad } from '../load.js';
import { localeOf, useShopPage } from '../page-data.js';
import { managePath, onLinkClick } from '../route.js';
import { shop, type ShopBooking } from '../shop.js';
import { Header } from '../components/header.js';
import { ErrorMessage, isNotFound, Loading, NotFound } from '../components/states.js';
import { BookingFacts, Confirmation } from './confirmation.js';
import { DetailsForm } from './details-form.js';

export function ClaimPageView({ slug, token }: { slug: string; token: string }) {
  const page = useShopPage(slug);
  const offer = useLoad(() => shop.offer(slug, token), [slug, token]);
  const activityId = offer.data?.Booking.ActivityID;
  const activity = useLoad(activityId ? () => shop.activity(slug, activityId) : null, [slug, activityId]);
  const [booked, setBooked] = useState<ShopBooking | null>(null);
  const [ended, setEnded] = useState(false);
  if (page.loading || offer.loading || activity.loading) return <Loading what="your offer" />;
  if (isNotFound(page.error) || isNotFound(offer.error)) return <NotFound />;
  if (!page.data) return <ErrorMessage error={page.error} retry={page.reload} />;
  if (!offer.data) return <ErrorMessage error={offer.error} retry={offer.reload} />;
  if (!activity.data) return <ErrorMessage error={activity.error} retry={activity.reload} />;
  const booking = offer.data.Booking;
  const locale = { ...localeOf(page.data), currency: booking.Price.Currency };
  const open = offer.data.State === 'offered' && booking.Status === 'on_hold' && !ended;

  let body;
  if (booked) body = <Confirmation slug={slug} token={token} locale={locale} activity={activity.data} booking={booked} />;
  else if (open)
    body = (
      <>
        <p class="notice">Places have come free on the time you waited for, and we are holding them for you. Book them before the time runs out.</p>
        <DetailsForm
          slug={slug}
          page={page.data}
          locale={locale}
          activity={activity.data}
          hold={{
            Token: token,
            ExpiresAt: booking.ExpiresAt ?? new Date().toISOString(),
            Date: booking.Date,
            Time: booking.Time,
            Participants: booking.Participants,
          }}
          initialCustomer={{
            FirstName: booking.Customer.FirstName ?? '',
            LastName: booking.Customer.LastName ?? '',
            Email: booking.Customer.Email ?? '',
            Phone: booking.Customer.Phone ?? '',
          }}
          confirm={(request) => shop.claim(slug, token, request)}
          onExpired={() => setEnded(true)}
          onBooked={setBooked}
        />
      </>
    );
  else if (booking.Status === 'confirmed')
    body = (
      <section class="step">
        <p>You booked these places.</p>
        <BookingFacts locale={locale} booking={booking} activityName={activity.data.Name} />
        <a class="button" href={managePath(slug, token)} onClick={onLinkClick}>
          Manage your booking
        </a>
      </section>
    );
  else
    body = (
      <section class="step">
        <p role="alert">This offer has ended: the places were held for a limited time and have gone to the next person waiting.</p>
        <BookingFacts locale={locale} booking={booking} activityName={activity.data.Name} />
      </section>
    );

  return (
    <>
      <Header name={page.data.AccountName} slug={slug} />
      <main id="main" class="page">
        <h1>{activity.data.Name}</h1>
        {body}
      </main>
    </>
  );
}
