// The console's shell: who is signed in decides between the sign-in page and the pages; each page has its own URL
// under /console, so any view can be shared as a link.
import { Redirect, Route, Switch } from 'wouter';
import { ApiProblem } from './api/client.js';
import { useSession } from './api/session.hooks.js';
import { Layout } from './components/layout.js';
import { ErrorState, Loading } from './components/states.js';
import { ActivitiesPage } from './pages/activities.js';
import { AuditPage } from './pages/audit.js';
import { AvailabilityPage } from './pages/availability.js';
import { BookingPagePage } from './pages/booking-page.js';
import { BookingsPage } from './pages/bookings.js';
import { FailedEventsPage } from './pages/failed-events.js';
import { KeysPage } from './pages/keys.js';
import { ManifestPage } from './pages/manifest.js';
import { NewSalePage } from './pages/new-sale.js';
import { ReportsPage } from './pages/reports.js';
import { UsagePage } from './pages/usage.js';
import { UsersPage } from './pages/users.js';
import { SignInPage } from './pages/sign-in.js';

const PAGES = [
  { path: '/bookings', page: BookingsPage },
  { path: '/manifest', page: ManifestPage },
  { path: '/availability', page: AvailabilityPage },
  { path: '/sale', page: NewSalePage },
  { path: '/reports', page: ReportsPage },
  { path: '/usage', page: UsagePage },
  { path: '/activities', page: ActivitiesPage },
  { path: '/booking-page', page: BookingPagePage },
  { path: '/keys', page: KeysPage },
  { path: '/users', page: UsersPage },
  { path: '/failed-events', page: FailedEventsPage },
  { path: '/audit', page: AuditPage },
] as const;

export function App() {
  const session = useSession();
  if (session.isPending) return <Loading what="the console" />;
  if (session.isError) {
    if (session.error instanceof ApiProblem && session.error.status === 401) return <SignInPage />;
    return <ErrorState error={session.error} />;
  }
  return (
    <Layout session={session.data} enabledPages={PAGES.map((p) => p.path)}>
      <Switch>
        {PAGES.map(({ path, page }) => (
          <Route key={path} path={path} component={page} />
        ))}
        <Route>
          <Redirect to="/bookings" replace />
        </Route>
      </Switch>
    </Layout>
  );
}
