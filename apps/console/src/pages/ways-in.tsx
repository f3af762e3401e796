// The pages reached without a session, from an e-mail or the sign-in page: an invitation's link (join the account:
// choose your password, or give the one you sign in with when you are a user of another account already; you are
// signed in at once), "Forgot your password?" (the same answer for any address) and a reset link (choose a new password;
// every other session ends). A link's token is in its fragment (#...), which the browser never sends to a server; the
// API refuses an expired, used, revoked or replaced link with a sentence shown as it comes.
import { useState, useSyncExternalStore, type FormEvent, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import type { OpenedInvitation } from '@backbone/contracts/browser';
import { useAcceptInvitation, useCompletePasswordReset, useOpenInvitation, useRequestPasswordReset } from '../api/session.hooks.js';
import { PasswordFields, passwordsDiffer } from '../components/password-fields.js';
import { FieldError, Loading, problemDetail } from '../components/states.js';

const tokenOfLink = () => window.location.hash.replace(/^#/, '');
const onHashChange = (listener: () => void) => {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
};
/** The link's token, following the address bar (another link opened in the same tab changes only the fragment). */
const useLinkToken = () => useSyncExternalStore(onHashChange, tokenOfLink);

/** A way in's card: its title and words, what the link says when it opens nothing, and the links back. */
function WayIn({ title, intro, children }: { title: string; intro: ReactNode; children: ReactNode }) {
  return (
    <main className="sign-in" id="main">
      <div className="card password-form">
        <h1 id="way-in-title">{title}</h1>
        {intro}
        {children}
        <p className="way-in-links">
          <Link href="/sign-in">Back to sign in</Link> · <Link href="/forgot-password">Forgot your password?</Link>
        </p>
      </div>
    </main>
  );
}

const INCOMPLETE_LINK = (
  <p className="form-error" role="alert">
    This link is not complete. Open the whole link from the e-mail, or ask for a new one.
  </p>
);

interface NewPasswordFormProps {
  submit: string;
  /** The API's member for the password (Password, NewPassword), whose errors show beside the field. */
  field: string;
  pending: boolean;
  error: unknown;
  onSubmit: (password: string) => void;
}

/** A new password twice, compared before anything is sent; the link's problems above the button. */
function NewPasswordForm({ submit, field, pending, error, onSubmit }: NewPasswordFormProps) {
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const mismatch = passwordsDiffer(password, repeated);
  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!mismatch) onSubmit(password);
  };
  const formError = error ? problemDetail(error, [field]) : '';
  return (
    <form className="password-form" onSubmit={send} aria-labelledby="way-in-title">
      <PasswordFields field={field} password={password} repeated={repeated} onPassword={setPassword} onRepeated={setRepeated} error={error} autoFocus />
      {formError && (
        <p className="form-error" role="alert">
          {formError}
        </p>
      )}
      <button type="submit" disabled={pending || mismatch}>
        {pending ? 'Saving…' : submit}
      </button>
    </form>
  );
}

/** The password an invitee signs in with already, proven to join another account: it is never replaced from a link. */
function ExistingPasswordForm({ pending, error, onSubmit }: Omit<NewPasswordFormProps, 'submit' | 'field'>) {
  const [password, setPassword] = useState('');
  const send = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(password);
  };
  const formError = error ? problemDetail(error, ['Password']) : '';
  return (
    <form className="password-form" onSubmit={send} aria-labelledby="way-in-title">
      <div className="field">
        <label>
          Your password
          <input
            name="Password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-describedby="password-error"
            autoFocus
          />
        </label>
        <FieldError error={error} field="Password" id="password-error" />
      </div>
      {formError && (
        <p className="form-error" role="alert">
          {formError}
        </p>
      )}
      <button type="submit" disabled={pending}>
        {pending ? 'Joining…' : 'Join and sign in'}
      </button>
    </form>
  );
}

/** After a way in that signs in: the bookings, without the link's token in the address bar (or the account's choice). */
function useEnterConsole(): () => void {
  const [, navigate] = useLocation();
  return () => navigate('/bookings', { replace: true });
}

const ROLE_WORDS: Record<OpenedInvitation['Role'], string> = { owner: 'an owner', staff: 'staff' };

export function AcceptInvitationPage() {
  const token = useLinkToken();
  const opened = useOpenInvitation(token);
  const accept = useAcceptInvitation();
  const enter = useEnterConsole();
  const send = (password: string) => accept.mutate({ Token: token, Password: password }, { onSuccess: enter });
  const invitation = opened.data;
  const intro = invitation ? (
    <p>
      You were invited to <strong className="wrap-anywhere">{invitation.AccountName}</strong> as {ROLE_WORDS[invitation.Role]} (
      <span className="wrap-anywhere">{invitation.Email}</span>).{' '}
      {invitation.HasPassword
        ? 'You sign in to the console already: give your password to add this account to yours. It stays as it is.'
        : 'Choose your password: you are signed in at once, and sign in with your e-mail address and this password from then on.'}
    </p>
  ) : (
    <p>You were invited to the operator console.</p>
  );
  return (
    <WayIn title="Join the console" intro={intro}>
      {token === '' ? (
        INCOMPLETE_LINK
      ) : opened.isPending ? (
        <Loading what="the invitation" />
      ) : opened.isError ? (
        <p className="form-error" role="alert">
          {problemDetail(opened.error)}
        </p>
      ) : opened.data.HasPassword ? (
        <ExistingPasswordForm pending={accept.isPending} error={accept.error} onSubmit={send} />
      ) : (
        <NewPasswordForm submit="Set password and sign in" field="Password" pending={accept.isPending} error={accept.error} onSubmit={send} />
      )}
    </WayIn>
  );
}

export function ResetPasswordPage() {
  const token = useLinkToken();
  const complete = useCompletePasswordReset();
  const enter = useEnterConsole();
  return (
    <WayIn
      title="Choose a new password"
      intro={<p>Your new password replaces the old one in each of your accounts, and every other session of yours is signed out.</p>}
    >
      {token === '' ? (
        INCOMPLETE_LINK
      ) : (
        <NewPasswordForm
          submit="Set new password"
          field="NewPassword"
          pending={complete.isPending}
          error={complete.error}
          onSubmit={(password) => complete.mutate({ Token: token, NewPassword: password }, { onSuccess: enter })}
        />
      )}
    </WayIn>
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
