// Console users (owners): the list, a form that shows a new user's one-time password once, and disabling a user.
import { useState, type FormEvent } from 'react';
import { OPERATOR_ROLES, operatorMay, type OperatorRole } from '@backbone/contracts/browser';
import { useAccountTime } from '../api/account-time.js';
import { useSession } from '../api/session.hooks.js';
import { useCreateUser, useDisableUser, useUsers } from '../api/users-and-keys.hooks.js';
import { ErrorState, Loading, problemDetail } from '../components/states.js';

export function UsersPage() {
  const session = useSession();
  const clock = useAccountTime();
  const users = useUsers();
  const create = useCreateUser();
  const disable = useDisableUser();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<OperatorRole>('staff');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ Email: email, Role: role }, { onSuccess: () => setEmail('') });
  };
  return (
    <div className="page">
      <div className="page-head">
        <h1>Users</h1>
      </div>
      {session.data && operatorMay(session.data.Role, 'createOperatorUser') && (
        <form className="card key-form" onSubmit={submit} aria-label="New user">
          <h2>New user</h2>
          <div className="row">
            <label className="grow">
              E-mail
              <input type="email" name="Email" required value={email} onChange={(e) => setEmail(e.target.value)} />
            </label>
            <label>
              Role
              <select name="Role" value={role} onChange={(e) => setRole(e.target.value as OperatorRole)}>
                {OPERATOR_ROLES.map((r) => (
                  <option key={r}>{r}</option>
                ))}
              </select>
            </label>
          </div>
          {create.isError && (
            <p className="form-error" role="alert">
              {problemDetail(create.error)}
            </p>
          )}
          {create.data && (
            <div className="secret" role="status">
              <span>One-time password of {create.data.Email}: hand it over now, it is not shown again; they choose their own at the first sign-in.</span>
              <code className="mono">{create.data.Password}</code>
            </div>
          )}
          <div>
            <button type="submit" disabled={create.isPending}>
              Add user
            </button>
          </div>
        </form>
      )}
      {users.isPending && <Loading what="users" />}
      {users.isError && <ErrorState error={users.error} />}
      {disable.isError && <ErrorState error={disable.error} />}
      {users.data && (
        <table className="table static">
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Since</th>
              <th scope="col">
                <span className="sr-only">Disable</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.data.map((u) => (
              <tr key={u.UserID} className={u.Disabled ? 'revoked' : undefined}>
                <td data-label="E-mail">{u.Email}</td>
                <td data-label="Role">{u.Role}</td>
                <td data-label="Since">{clock.date(u.CreatedAt)}</td>
                <td data-label="">
                  {u.Disabled ? (
                    <span className="muted">disabled</span>
                  ) : u.Email === session.data?.Email ? (
                    <span className="muted">you</span>
                  ) : (
                    session.data &&
                    operatorMay(session.data.Role, 'disableOperatorUser') && (
                      <button type="button" className="secondary small" onClick={() => disable.mutate(u.UserID)} disabled={disable.isPending}>
                        Disable
                      </button>
                    )
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
