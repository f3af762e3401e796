// The account's activities: what each is, how long it takes and what it costs; each opens its booking.
import { formatDuration, formatMoney } from '../format.js';
import { localeOf, useShopPage } from '../page-data.js';
import { activityPath, onLinkClick } from '../route.js';
import { ErrorMessage, isNotFound, Loading, NotFound } from '../components/states.js';
import { Header } from '../components/header.js';

export function ShopPageView({ slug }: { slug: string }) {
  const page = useShopPage(slug);
  if (page.loading) return <Loading what="the booking page" />;
  if (isNotFound(page.error)) return <NotFound />;
  if (!page.data) return <ErrorMessage error={page.error} retry={page.reload} />;
  const locale = localeOf(page.data);
  return (
    <>
      <Header name={page.data.AccountName} slug={slug} />
      <main id="main" class="page">
        <h1>Book online</h1>
        {page.data.Activities.length === 0 ? <p>Nothing can be booked online at the moment.</p> : null}
        <ul class="activities" role="list">
          {page.data.Activities.map((activity) => (
            <li key={activity.ActivityID} class="card">
              <h2>
                <a href={activityPath(slug, activity.ActivityID)} onClick={onLinkClick}>
                  {activity.Name}
                </a>
              </h2>
              <p class="facts">
                <span>{formatDuration(activity.DurationMinutes, locale)}</span>
                <span>
                  {formatMoney(activity.Price.Amount, { ...locale, currency: activity.Price.Currency })} <span class="per">per person</span>
                </span>
              </p>
              {activity.Description ? <p class="description">{activity.Description}</p> : null}
              <a class="button" href={activityPath(slug, activity.ActivityID)} onClick={onLinkClick} aria-label={`Choose a date for ${activity.Name}`}>
                Choose a date
              </a>
            </li>
          ))}
        </ul>
      </main>
    </>
  );
}
