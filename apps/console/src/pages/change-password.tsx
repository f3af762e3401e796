// Change password: the current one, then the new one twice. After a one-time password (given by the admin CLI or an
// owner) it is the only page there is, until the user has chosen their own.
import { useState, type FormEvent } from 'react';
import { useChangeOwnPassword, useSignOut } from '../api/session.hooks.js';
import { PasswordFields, passwordsDiffer } from '../components/password-fields.js';
import { FieldError, problemDetail } from '../components/states.js';

export function ChangePasswordPage() {
  return <PasswordForm firstSignIn={false} />;
}

/** The only page of a user signed in with a one-time password. */
export function FirstPasswordPage() {
  return <PasswordForm firstSignIn />;
}

function PasswordForm({ firstSignIn }: { firstSignIn: boolean }) {
  const change = useChangeOwnPassword();
  const signOut = useSignOut();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeated, setRepeated] = useState('');
  const mismatch = passwordsDiffer(next, repeated);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mismatch) return;
    change.mutate({ CurrentPassword: current, NewPassword: next }, { onSuccess: () => (setCurrent(''), setNext(''), setRepeated('')) });
  };
  const formError = change.isError ? problemDetail(change.error, ['CurrentPassword', 'NewPassword']) : '';
  const form = (
    <form className="card password-form" onSubmit={submit} aria-labelledby="password-title">
      <h1 id="password-title">{firstSignIn ? 'Choose your password' : 'Change password'}</h1>
      {firstSignIn && <p>You signed in with a one-time password. Choose your own to continue; the one-time password stops working.</p>}
      <div className="field">
        <label>
          Current password
          <input
            name="CurrentPassword"
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
            aria-describedby="current-error"
            autoFocus
          />
        </label>
        <FieldError error={change.error} field="CurrentPassword" id="current-error" />
      </div>
      <PasswordFields field="NewPassword" password={next} repeated={repeated} onPassword={setNext} onRepeated={setRepeated} error={change.error} />
      {formError && (
        <p className="form-error" role="alert">
          {formError}
        </p>
      )}
      {change.isSuccess && !firstSignIn && (
        <p className="ok" role="status">
          Password changed. It is yours in each of your accounts; your other sessions were signed out.
        </p>
      )}
      <div className="row">
        <button type="submit" disabled={change.isPending || mismatch}>
          {change.isPending ? 'Saving…' : 'Change password'}
        </button>
        {firstSignIn && (
          <button type="button" className="secondary" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
        )}
      </div>
    </form>
  );
  return firstSignIn ? (
    <main className="sign-in" id="main">
      {form}
    </main>
  ) : (
    <div className="page">{form}</div>
  );
}
