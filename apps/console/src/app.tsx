// The console's shell: who is signed in decides between the sign-in page and the pages; each page has its own URL
// under /console, so any view can be shared as a link. A person signed in with several accounts chooses one first; a
// user signed in with a one-time password sees only the page that replaces it. The ways in (an invitation's link, a forgotten password) are pages of their own, without a session.
// Each page names the operation it is built on: a role that may not call it (the contracts' permission table, the
// API's own) finds the page neither in the navigation nor behind its URL.
import type { ComponentType } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { operatorMay, type OperatorOperationId } from '@backbone/contracts/browser';
import { ApiProblem } from './api/client.js';
import { accountChoiceOf, needsPasswordChange, useSession } from './api/session.hooks.js';
import { Layout } from './components/layout.js';
import { ErrorState, Loading } from './components/states.js';
import { ActivitiesPage } from './pages/activities.js';
import { AuditPage } from './pages/audit.js';
import { AvailabilityPage } from './pages/availability.js';
import { BookingPagePage } from './pages/booking-page.js';
import { BookingsPage } from './pages/bookings.js';
import { ChangePasswordPage, FirstPasswordPage } from './pages/change-password.js';
import { ChooseAccountPage } from './pages/choose-account.js';
import { EmailTemplatesPage } from './pages/email-templates.js';
import { EmailsPage } from './pages/emails.js';
import { FailedEventsPage } from './pages/failed-events.js';
import { KeysPage } from './pages/keys.js';
import { ManifestPage } from './pages/manifest.js';
import { NewSalePage } from './pages/new-sale.js';
import { ReportsPage } from './pages/reports.js';
import { UsagePage } from './pages/usage.js';
import { UsersPage } from './pages/users.js';
import { WaitlistPage } from './pages/waitlist.js';
import { SignInPage } from './pages/sign-in.js';
import { AcceptInvitationPage, ForgotPasswordPage, ResetPasswordPage } from './pages/ways-in.js';

interface ConsolePage {
  path: string;
  /** In the navigation; the Password page is reached from the header instead, a waitlist from its timeslot. */
  label: string | null;
  operation: OperatorOperationId;
  page: ComponentType;
}

const PAGES: readonly ConsolePage[] = [
  { path: '/bookings', label: 'Bookings', operation: 'listOperatorBookings', page: BookingsPage },
  { path: '/manifest', label: 'Manifest', operation: 'getOperatorManifest', page: ManifestPage },
  { path: '/availability', label: 'Availability', operation: 'listOperatorTimeslots', page: AvailabilityPage },
  // A timeslot's waitlist, reached from its slot on Availability.
  { path: '/waitlist', label: null, operation: 'listTimeslotWaitlist', page: WaitlistPage },
  { path: '/sale', label: 'New sale', operation: 'createSale', page: NewSalePage },
  { path: '/reports', label: 'Sales', operation: 'getOperatorSalesReport', page: ReportsPage },
  { path: '/usage', label: 'Usage', operation: 'getOperatorUsage', page: UsagePage },
  { path: '/activities', label: 'Activities', operation: 'editOperatorActivity', page: ActivitiesPage },
  { path: '/booking-page', label: 'Booking page', operation: 'getOperatorBookingPage', page: BookingPagePage },
  { path: '/keys', label: 'Keys', operation: 'listOperatorKeys', page: KeysPage },
  { path: '/users', label: 'Users', operation: 'listOperatorUsers', page: UsersPage },
  { path: '/failed-events', label: 'Failed events', operation: 'listFailedEvents', page: FailedEventsPage },
  { path: '/audit', label: 'Audit', operation: 'listOperatorAudit', page: AuditPage },
  { path: '/emails', label: 'E-mails', operation: 'listMailMessages', page: EmailsPage },
  { path: '/email-templates', label: 'Templates', operation: 'updateMailSettings', page: EmailTemplatesPage },
  { path: '/password', label: null, operation: 'changeOwnPassword', page: ChangePasswordPage },
];

/** The ways in that need no session, opened from an e-mail's link or the sign-in page: shown whoever is signed in. */
const WAYS_IN: Readonly<Record<string, ComponentType>> = {
  '/invitation': AcceptInvitationPage,
  '/password-reset': ResetPasswordPage,
  '/forgot-password': ForgotPasswordPage,
};

function NotForYourRole() {
  return (
    <div className="page">
      <p className="state" role="status">
        This page is for owners of the account. <Link href="/bookings">Go to Bookings</Link>.
      </p>
    </div>
  );
}

export function App() {
  const session = useSession();
  const [location] = useLocation();
  const WayIn = WAYS_IN[location];
  if (WayIn) return <WayIn />;
  if (session.isPending) return <Loading what="the console" />;
  if (session.isError) {
    if (session.error instanceof ApiProblem && session.error.status === 401) return <SignInPage />;
    if (needsPasswordChange(session.error)) return <FirstPasswordPage />;
    const choice = accountChoiceOf(session.error);
    if (choice) return <ChooseAccountPage accounts={choice} />;
    return <ErrorState error={session.error} />;
  }
  const role = session.data.Role;
  const navigation = PAGES.flatMap((p) => (p.label !== null && operatorMay(role, p.operation) ? [{ href: p.path, label: p.label }] : []));
  return (
    <Layout session={session.data} navigation={navigation}>
      <Switch>
        {PAGES.map(({ path, operation, page }) => (
          <Route key={path} path={path} component={operatorMay(role, operation) ? page : NotForYourRole} />
        ))}
        <Route>
          <Redirect to="/bookings" replace />
        </Route>
      </Switch>
    </Layout>
  );
}
