// API keys (owners): the list with prefixes and last use, a form that shows a new key's secret once, and revoking
// with a second click to confirm.
import { useState, type FormEvent } from 'react';
import { operatorMay, SCOPES, type ApiKey, type Scope } from '@backbone/contracts/browser';
import { useAccountTime } from '../api/account-time.js';
import { useSession } from '../api/session.hooks.js';
import { useCreateKey, useKeys, useRevokeKey } from '../api/users-and-keys.hooks.js';
import { Empty, ErrorState, Loading, problemDetail } from '../components/states.js';

function RevokeButton({ apiKey }: { apiKey: ApiKey }) {
  const revoke = useRevokeKey();
  const clock = useAccountTime();
  const [confirming, setConfirming] = useState(false);
  if (apiKey.RevokedAt) return <span className="muted">revoked {clock.dateTime(apiKey.RevokedAt)}</span>;
  return (
    <>
      {confirming ? (
        <button type="button" className="danger small" onClick={() => revoke.mutate(apiKey.KeyID)} disabled={revoke.isPending} autoFocus>
          Confirm revoke
        </button>
      ) : (
        <button type="button" className="secondary small" onClick={() => setConfirming(true)}>
          Revoke
        </button>
      )}
      {revoke.isError && <span className="form-error">{problemDetail(revoke.error)}</span>}
    </>
  );
}

function NewKeyForm() {
  const create = useCreateKey();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['ota']);
  const [test, setTest] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ Name: name, Scopes: scopes, Test: test }, { onSuccess: () => setName('') });
  };
  const toggle = (scope: Scope) => setScopes(scopes.includes(scope) ? scopes.filter((s) => s !== scope) : [...scopes, scope]);
  return (
    <form className="card key-form" onSubmit={submit} aria-label="New API key">
      <h2>New key</h2>
      <label>
        Name
        <input name="Name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <fieldset className="scopes">
        <legend>Scopes</legend>
        {SCOPES.map((scope) => (
          <label key={scope} className="check">
            <input type="checkbox" checked={scopes.includes(scope)} onChange={() => toggle(scope)} /> {scope}
          </label>
        ))}
      </fieldset>
      <label className="check">
        <input type="checkbox" name="Test" checked={test} onChange={(e) => setTest(e.target.checked)} /> Test (a sandbox key: its bookings take test places,
        never live ones)
      </label>
      {create.isError && (
        <p className="form-error" role="alert">
          {problemDetail(create.error)}
        </p>
      )}
      {create.data && (
        <div className="secret" role="status">
          <span>Secret of “{create.data.Name}” — copy it now, it is not shown again:</span>
          <code className="mono" data-secret>
            {create.data.Secret}
          </code>
        </div>
      )}
      <div>
        <button type="submit" disabled={create.isPending || scopes.length === 0}>
          Create key
        </button>
      </div>
    </form>
  );
}

export function KeysPage() {
  const session = useSession();
  const clock = useAccountTime();
  const when = (iso: string | null) => (iso ? clock.dateTime(iso) : '—');
  const keys = useKeys();
  return (
    <div className="page">
      <div className="page-head">
        <h1>API keys</h1>
      </div>
      {/* Staff would only get the API's 403 from this form; the list below shows that 403 already. */}
      {session.data && operatorMay(session.data.Role, 'createOperatorKey') && <NewKeyForm />}
      {keys.isPending && <Loading what="keys" />}
      {keys.isError && <ErrorState error={keys.error} />}
      {keys.data && keys.data.length === 0 && <Empty>No keys yet.</Empty>}
      {keys.data && keys.data.length > 0 && (
        <table className="table static">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Scopes</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="sr-only">Revoke</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((k) => (
              <tr key={k.KeyID} data-key={k.KeyID} className={k.RevokedAt ? 'revoked' : undefined}>
                <td data-label="Name">
                  {k.Name}
                  {k.Test && <span className="badge"> test</span>}
                </td>
                <td data-label="Prefix" className="mono">
                  {k.Prefix}…
                </td>
                <td data-label="Scopes">{k.Scopes.join(', ')}</td>
                <td data-label="Created">{when(k.CreatedAt)}</td>
                <td data-label="Last used">{when(k.LastUsedAt)}</td>
                <td data-label="">{session.data && operatorMay(session.data.Role, 'revokeOperatorKey') && <RevokeButton apiKey={k} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
