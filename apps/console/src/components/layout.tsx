// The frame around every signed-in page: the account, the navigation (the pages the user's role may use, chosen by
// app.tsx from the contracts' permission table) and sign-out. On narrow screens the
// navigation scrolls sideways above the page. Every user may change their own password. A person who is a user of
// several accounts switches between them from the account's name. When the browser's time zone is not the account's,
// the header says which zone the console's times are in.
import type { ReactNode } from 'react';
import { Link, useLocation, useRoute } from 'wouter';
import type { OperatorSession } from '@backbone/contracts/browser';
import { useAccountTime } from '../api/account-time.js';
import { useChooseAccount, useSignOut } from '../api/session.hooks.js';

function NavLink({ href, label }: { href: string; label: string }) {
  const [active] = useRoute(href);
  return (
    <Link href={href} className={active ? 'nav-link active' : 'nav-link'} aria-current={active ? 'page' : undefined}>
      {label}
    </Link>
  );
}

export function Layout({
  session,
  navigation,
  children,
}: {
  session: OperatorSession;
  navigation: readonly { href: string; label: string }[];
  children: ReactNode;
}) {
  const signOut = useSignOut();
  const clock = useAccountTime();
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar no-print">
        <div className="brand">
          {session.Accounts.length > 1 ? <AccountSwitch session={session} /> : <span className="account">{session.AccountName}</span>}
          <span className="who">
            {session.Email ?? 'API key'} · {session.Role}
          </span>
          {clock.differs && <span className="zone">Times in {clock.zone}</span>}
        </div>
        <nav aria-label="Pages" className="nav">
          {navigation.map((p) => (
            <NavLink key={p.href} href={p.href} label={p.label} />
          ))}
        </nav>
        <Link href="/password" className="nav-link account-link">
          Password
        </Link>
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

/**
 * The person's accounts, this one selected: choosing another replaces the session with one of that account, on the
 * same page without its filters and open items (they were the other account's).
 */
function AccountSwitch({ session }: { session: OperatorSession }) {
  const [location, navigate] = useLocation();
  const choose = useChooseAccount(() => navigate(location, { replace: true }));
  return (
    <label className="account account-switch">
      <span className="sr-only">Account</span>
      <select name="Account" value={session.AccountID} onChange={(e) => choose.mutate(e.target.value)} disabled={choose.isPending}>
        {session.Accounts.map((a) => (
          <option key={a.AccountID} value={a.AccountID}>
            {a.AccountName}
          </option>
        ))}
      </select>
    </label>
  );
}
