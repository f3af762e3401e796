// The pages reached without a session, from an e-mail or the sign-in page: an invitation's link (choose your password
// and you are signed in), "Forgot your password?" (the same answer for any address) and a reset link (choose a new
// password; every other session ends). A link's token is in its fragment (#...), which the browser never sends to a
// server; the API refuses an expired, used, revoked or replaced link with a sentence shown as it comes.
import { useState, useSyncExternalStore, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { ApiProblem } from '../api/client.js';
import { useAcceptInvitation, useCompletePasswordReset, useRequestPasswordReset } from '../api/session.hooks.js';
import { FieldError, problemDetail } from '../components/states.js';

const MIN_LENGTH = 12;

const tokenOfLink = () => window.location.hash.replace(/^#/, '');
const onHashChange = (listener: () => void) => {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
};
/** The link's token, following the address bar (another link opened in the same tab changes only the fragment). */
const useLinkToken = () => useSyncExternalStore(onHashChange, tokenOfLink);

interface NewPasswordProps {
  title: string;
  intro: string;
  submit: string;
  /** The API's member for the password (Password, NewPassword), whose errors show beside the field. */
  field: string;
  pending: boolean;
  error: ApiProblem | Error | null;
  onSubmit: (token: string, password: string) => void;
}

/** A new password twice, compared before anything is sent; the link's problems above the button. */
function NewPasswordPage({ title, intro, submit, field, pending, error, onSubmit }: NewPasswordProps) {
  const token = useLinkToken();
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const mismatch = repeated !== '' && repeated !== password;
  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!mismatch) onSubmit(token, password);
  };
  const formError = error ? problemDetail(error, [field]) : '';
  return (
    <main className="sign-in" id="main">
      <form className="card password-form" onSubmit={send} aria-labelledby="way-in-title">
        <h1 id="way-in-title">{title}</h1>
        <p>{intro}</p>
        {token === '' ? (
          <p className="form-error" role="alert">
            This link is not complete. Open the whole link from the e-mail, or ask for a new one.
          </p>
        ) : (
          <>
            <div className="field">
              <label>
                New password
                <input
                  name={field}
                  type="password"
                  autoComplete="new-password"
                  required
                  minLength={MIN_LENGTH}
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  aria-describedby="new-hint new-error"
                  autoFocus
                />
              </label>
              <span className="hint" id="new-hint">
                At least {MIN_LENGTH} characters.
              </span>
              <FieldError error={error} field={field} id="new-error" />
            </div>
            <div className="field">
              <label>
                New password again
                <input
                  name="RepeatedPassword"
                  type="password"
                  autoComplete="new-password"
                  required
                  value={repeated}
                  onChange={(e) => setRepeated(e.target.value)}
                  aria-invalid={mismatch}
                  aria-describedby="repeat-error"
                />
              </label>
              {mismatch && (
                <span className="field-error" id="repeat-error">
                  The two passwords differ.
                </span>
              )}
            </div>
            {formError && (
              <p className="form-error" role="alert">
                {formError}
              </p>
            )}
            <button type="submit" disabled={pending || mismatch}>
              {pending ? 'Saving…' : submit}
            </button>
          </>
        )}
        <p className="way-in-links">
          <Link href="/sign-in">Back to sign in</Link> · <Link href="/forgot-password">Forgot your password?</Link>
        </p>
      </form>
    </main>
  );
}

/** After a way in that signs in: the bookings, without the link's token in the address bar. */
function useEnterConsole(): () => void {
  const [, navigate] = useLocation();
  return () => navigate('/bookings', { replace: true });
}

export function AcceptInvitationPage() {
  const accept = useAcceptInvitation();
  const enter = useEnterConsole();
  return (
    <NewPasswordPage
      title="Join the console"
      intro="You were invited to the operator console. Choose your password: you are signed in at once, and sign in with your e-mail address and this password from then on."
      submit="Set password and sign in"
      field="Password"
      pending={accept.isPending}
      error={accept.error}
      onSubmit={(token, password) => accept.mutate({ Token: token, Password: password }, { onSuccess: enter })}
    />
  );
}

export function ResetPasswordPage() {
  const complete = useCompletePasswordReset();
  const enter = useEnterConsole();
  return (
    <NewPasswordPage
      title="Choose a new password"
      intro="Your new password replaces the old one, and every other session of yours is signed out."
      submit="Set new password"
      field="NewPassword"
      pending={complete.isPending}
      error={complete.error}
      onSubmit={(token, password) => complete.mutate({ Token: token, NewPassword: password }, { onSuccess: enter })}
    />
  );
}

export function ForgotPasswordPage() {
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState('');
  const send = (event: FormEvent) => {
    event.preventDefault();
    request.mutate(email.trim());
  };
  return (
    <main className="sign-in" id="main">
      <form className="card password-form" onSubmit={send} aria-labelledby="forgot-title">
        <h1 id="forgot-title">Forgot your password?</h1>
        <p>Give the e-mail address you sign in with: we send a link to choose a new password. It works once, for an hour.</p>
        <label>
          E-mail
          <input name="Email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
        </label>
        {request.isError && (
          <p className="form-error" role="alert">
            {problemDetail(request.error)}
          </p>
        )}
        {request.isSuccess && (
          <p className="ok" role="status">
            If {request.variables} is the address of a console user, a link is on its way to it. Check the inbox (and the spam folder).
          </p>
        )}
        <button type="submit" disabled={request.isPending}>
          {request.isPending ? 'Sending…' : 'Send the link'}
        </button>
        <p className="way-in-links">
          <Link href="/sign-in">Back to sign in</Link>
        </p>
      </form>
    </main>
  );
}
