// The page's shell: the address decides the view.
import { useEffect } from 'preact/hooks';
import { useRoute } from './route.js';
import { NotFound } from './components/states.js';
import { ShopPageView } from './pages/shop-page.js';
import { ActivityPageView } from './pages/activity-page.js';
import { ManagePageView } from './pages/manage-page.js';
import { ClaimPageView } from './pages/claim-page.js';

export function App() {
  const route = useRoute();
  useEffect(() => scrollTo(0, 0), [route.kind, route.kind === 'activity' ? route.activityId : '']);
  switch (route.kind) {
    case 'shop':
      return <ShopPageView slug={route.slug} />;
    case 'activity':
      return <ActivityPageView key={route.activityId} slug={route.slug} activityId={route.activityId} date={route.date} />;
    case 'manage':
      return <ManagePageView slug={route.slug} token={route.token} />;
    case 'claim':
      return <ClaimPageView slug={route.slug} token={route.token} />;
    default:
      return <NotFound />;
  }
}
