// After signing in with several accounts (one e-mail, one password, a user of each): the accounts by name, one button
// each. Until one is chosen the session opens nothing; the header's switcher changes account later.
import type { OperatorAccountChoice } from '@backbone/contracts/browser';
import { useChooseAccount, useSignOut } from '../api/session.hooks.js';
import { problemDetail } from '../components/states.js';

export function ChooseAccountPage({ accounts }: { accounts: readonly OperatorAccountChoice[] }) {
  const choose = useChooseAccount();
  const signOut = useSignOut();
  return (
    <main className="sign-in" id="main">
      <section className="card password-form" aria-labelledby="choose-title">
        <h1 id="choose-title">Choose an account</h1>
        {accounts.length === 0 ? (
          <p>None of your accounts is open to you any more. Ask an owner of one to enable your user again.</p>
        ) : (
          <>
            <p>You are a user of several accounts. Which one do you work in now? The header switches to another later.</p>
            <ul className="account-choices">
              {accounts.map((a) => (
                <li key={a.AccountID}>
                  <button type="button" className="secondary account-choice" onClick={() => choose.mutate(a.AccountID)} disabled={choose.isPending}>
                    {a.AccountName}
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
        {choose.isError && (
          <p className="form-error" role="alert">
            {problemDetail(choose.error)}
          </p>
        )}
        <div>
          <button type="button" className="secondary small" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
        </div>
      </section>
    </main>
  );
}
