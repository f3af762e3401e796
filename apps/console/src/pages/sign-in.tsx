// Sign-in: e-mail and password; the API's problem (wrong credentials, throttled) is shown as it comes; a link to
// "Forgot your password?".
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useSignIn } from '../api/session.hooks.js';
import { problemDetail } from '../components/states.js';

export function SignInPage() {
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ Email: email, Password: password });
  };
  return (
    <main className="sign-in" id="main">
      <form className="card" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Operator console</h1>
        <label>
          E-mail
          <input name="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        {signIn.isError && (
          <p className="form-error" role="alert">
            {problemDetail(signIn.error)}
          </p>
        )}
        <button type="submit" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="way-in-links">
          <Link href="/forgot-password">Forgot your password?</Link>
        </p>
      </form>
    </main>
  );
}
