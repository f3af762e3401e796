// One activity: what it is, then its booking (booking-flow.tsx). Deep links open it at ?date=YYYY-MM-DD.
import { formatDuration, formatMoney } from '../format.js';
import { useLoad } from '../load.js';
import { localeOf, useShopPage } from '../page-data.js';
import { onLinkClick, shopPath } from '../route.js';
import { shop } from '../shop.js';
import { Header } from '../components/header.js';
import { ErrorMessage, isNotFound, Loading, NotFound } from '../components/states.js';
import { BookingFlow } from './booking-flow.js';

export function ActivityPageView({ slug, activityId, date }: { slug: string; activityId: string; date: string | null }) {
  const page = useShopPage(slug);
  const activity = useLoad(() => shop.activity(slug, activityId), [slug, activityId]);
  if (page.loading || activity.loading) return <Loading what="the activity" />;
  if (isNotFound(page.error) || isNotFound(activity.error)) return <NotFound />;
  if (!page.data) return <ErrorMessage error={page.error} retry={page.reload} />;
  if (!activity.data) return <ErrorMessage error={activity.error} retry={activity.reload} />;
  const locale = localeOf(page.data);
  const a = activity.data;
  return (
    <>
      <Header name={page.data.AccountName} slug={slug} />
      <main id="main" class="page">
        {page.data.Activities.length > 1 ? (
          <p class="back">
            <a href={shopPath(slug)} onClick={onLinkClick}>
              ‹ All activities
            </a>
          </p>
        ) : null}
        <h1>{a.Name}</h1>
        <p class="facts">
          <span>{formatDuration(a.DurationMinutes, locale)}</span>
          <span>
            {formatMoney(a.Price.Amount, { ...locale, currency: a.Price.Currency })} <span class="per">per person</span>
          </span>
        </p>
        {a.Description ? <p class="description">{a.Description}</p> : null}
        <BookingFlow slug={slug} page={page.data} activity={a} initialDate={date} />
      </main>
    </>
  );
}
