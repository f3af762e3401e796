// The frame around every signed-in page: the account, the navigation (owner-only pages hidden from staff; the API
// refuses them anyway) and sign-out. On narrow screens the navigation scrolls sideways above the page.
import type { ReactNode } from 'react';
import { Link, useRoute } from 'wouter';
import type { OperatorSession } from '@backbone/contracts/browser';
import { useSignOut } from '../api/hooks.js';

const PAGES = [
  { href: '/bookings', label: 'Bookings', ownerOnly: false },
  { href: '/availability', label: 'Availability', ownerOnly: false },
  { href: '/sale', label: 'New sale', ownerOnly: false },
  { href: '/usage', label: 'Usage', ownerOnly: false },
  { href: '/activities', label: 'Activities', ownerOnly: true },
  { href: '/keys', label: 'Keys', ownerOnly: true },
  { href: '/users', label: 'Users', ownerOnly: true },
  { href: '/failed-events', label: 'Failed events', ownerOnly: false },
] as const;

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
      <header className="topbar">
        <div className="brand">
          <span className="account">{session.AccountName}</span>
          <span className="who">
            {session.Email ?? 'API key'} · {session.Role}
          </span>
        </div>
        <nav aria-label="Pages" className="nav">
          {PAGES.filter((p) => enabledPages.includes(p.href) && (!p.ownerOnly || session.Role === 'owner')).map((p) => (
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
