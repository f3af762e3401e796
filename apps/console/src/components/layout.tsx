// The frame around every signed-in page: the account, the navigation (a page whose operation the user's role may not
// call is hidden, by the contracts' permission table; the API refuses it anyway) and sign-out. On narrow screens the
// navigation scrolls sideways above the page.
import type { ReactNode } from 'react';
import { Link, useRoute } from 'wouter';
import { operatorMay, type OperatorOperationId, type OperatorSession } from '@backbone/contracts/browser';
import { useSignOut } from '../api/session.hooks.js';

const PAGES = [
  { href: '/bookings', label: 'Bookings', operation: 'listOperatorBookings' },
  { href: '/manifest', label: 'Manifest', operation: 'getOperatorManifest' },
  { href: '/availability', label: 'Availability', operation: 'listOperatorTimeslots' },
  { href: '/sale', label: 'New sale', operation: 'createSale' },
  { href: '/reports', label: 'Sales', operation: 'getOperatorSalesReport' },
  { href: '/usage', label: 'Usage', operation: 'getOperatorUsage' },
  { href: '/activities', label: 'Activities', operation: 'editOperatorActivity' },
  { href: '/booking-page', label: 'Booking page', operation: 'getOperatorBookingPage' },
  { href: '/keys', label: 'Keys', operation: 'listOperatorKeys' },
  { href: '/users', label: 'Users', operation: 'listOperatorUsers' },
  { href: '/failed-events', label: 'Failed events', operation: 'listFailedEvents' },
  { href: '/audit', label: 'Audit', operation: 'listOperatorAudit' },
] as const satisfies ReadonlyArray<{ href: string; label: string; operation: OperatorOperationId }>;

export type PagePath = (typeof PAGES)[number]['href'];

function NavLink({ href, label }: { href: string; label: string }) {
  const [active] = useRoute(href);
  return (
    <Link href={href} className={active ? 'nav-link active' : 'nav-link'} aria-current={active ? 'page' : undefined}>
      {label}
    </Link>
  );
}

export function Layout({ session, enabledPages, children }: { session: OperatorSession; enabledPages: readonly string[]; children: ReactNode }) {
  const signOut = useSignOut();
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar no-print">
        <div className="brand">
          <span className="account">{session.AccountName}</span>
          <span className="who">
            {session.Email ?? 'API key'} · {session.Role}
          </span>
        </div>
        <nav aria-label="Pages" className="nav">
          {PAGES.filter((p) => enabledPages.includes(p.href) && operatorMay(session.Role, p.operation)).map((p) => (
            <NavLink key={p.href} href={p.href} label={p.label} />
          ))}
        </nav>
        <button type="button" className="secondary" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
