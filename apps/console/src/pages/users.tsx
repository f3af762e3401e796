// Console users (owners): invite someone by e-mail (name, role), the pending invitations with Resend and Revoke, the
// users with their names, and disabling a user. The invitee chooses their own password from the e-mail's link; nobody
// else ever sees it.
import { useState, type FormEvent, type ReactNode } from 'react';
import { OPERATOR_ROLES, type ConsoleInvitation, type OperatorRole } from '@backbone/contracts/browser';
import { useAccountTime } from '../api/account-time.js';
import { useMay, useSession } from '../api/session.hooks.js';
import { useDisableUser, useInvitations, useInviteUser, useResendInvitation, useRevokeInvitation, useUsers } from '../api/users-and-keys.hooks.js';
import { Empty, ErrorState, FieldError, Loading, problemDetail } from '../components/states.js';

const ROLE_WORDS: Record<OperatorRole, string> = { owner: 'Owner', staff: 'Staff' };

const MAIL_WORDS: Record<ConsoleInvitation['MailStatus'], string> = {
  queued: 'e-mail on its way',
  sent: 'e-mail sent',
  failed: 'e-mail failed',
  cancelled: 'e-mail withdrawn',
};

export function UsersPage() {
  const may = useMay();
  return (
    <div className="page">
      <div className="page-head">
        <h1>Users</h1>
      </div>
      {may('inviteOperatorUser') && <InviteForm />}
      {may('listOperatorInvitations') && <PendingInvitations />}
      <UserList />
    </div>
  );
}

function InviteForm() {
  const invite = useInviteUser();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<OperatorRole>('staff');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate({ Email: email, Name: name, Role: role }, { onSuccess: () => (setEmail(''), setName('')) });
  };
  const formError = invite.isError ? problemDetail(invite.error, ['Email', 'Name']) : '';
  return (
    <form className="card key-form" onSubmit={submit} aria-label="Invite a user">
      <h2>Invite a user</h2>
      <p className="hint">They get an e-mail with a link to choose their password; it works once, for 48 hours.</p>
      <div className="row">
        <div className="field grow">
          <label>
            Name
            <input name="Name" required maxLength={200} autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <FieldError error={invite.error} field="Name" />
        </div>
        <div className="field grow">
          <label>
            E-mail
            <input type="email" name="Email" required autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <FieldError error={invite.error} field="Email" />
        </div>
        <label>
          Role
          <select name="Role" value={role} onChange={(e) => setRole(e.target.value as OperatorRole)}>
            {OPERATOR_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_WORDS[r]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {formError && (
        <p className="form-error" role="alert">
          {formError}
        </p>
      )}
      {invite.data && (
        <p className="ok" role="status">
          Invitation sent to {invite.data.Email}.
        </p>
      )}
      <div>
        <button type="submit" disabled={invite.isPending}>
          Send invitation
        </button>
      </div>
    </form>
  );
}

function PendingInvitations() {
  const clock = useAccountTime();
  const invitations = useInvitations();
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  if (invitations.isPending) return <Loading what="invitations" />;
  if (invitations.isError) return <ErrorState error={invitations.error} />;
  return (
    <section aria-labelledby="pending-title">
      <h2 id="pending-title">Pending invitations</h2>
      {(resend.isError || revoke.isError) && <ErrorState error={resend.error ?? revoke.error} />}
      {resend.data && (
        <p className="ok" role="status">
          A new link was sent to {resend.data.Email}; the earlier ones no longer work.
        </p>
      )}
      {invitations.data.length === 0 ? (
        <Empty>No invitation is waiting for an answer.</Empty>
      ) : (
        <PeopleTable detail="Link" actions="Resend or revoke">
          {invitations.data.map((i) => (
            <PersonRow
              key={i.InvitationID}
              name={i.Name}
              email={i.Email}
              role={i.Role}
              detailLabel="Link"
              detail={
                <span>
                  {i.Expired ? `expired ${clock.dateTime(i.ExpiresAt)}` : `until ${clock.dateTime(i.ExpiresAt)}`}
                  <span className="muted"> · {MAIL_WORDS[i.MailStatus]}</span>
                </span>
              }
              actions={
                <div className="row-actions">
                  <button type="button" className="secondary small" onClick={() => resend.mutate(i.InvitationID)} disabled={resend.isPending}>
                    Resend
                  </button>
                  <button type="button" className="secondary small" onClick={() => revoke.mutate(i.InvitationID)} disabled={revoke.isPending}>
                    Revoke
                  </button>
                </div>
              }
            />
          ))}
        </PeopleTable>
      )}
    </section>
  );
}

function UserList() {
  const session = useSession();
  const may = useMay();
  const clock = useAccountTime();
  const users = useUsers();
  const disable = useDisableUser();
  return (
    <section aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      {users.isPending && <Loading what="users" />}
      {users.isError && <ErrorState error={users.error} />}
      {disable.isError && <ErrorState error={disable.error} />}
      {users.data && (
        <PeopleTable detail="Since" actions="Disable">
          {users.data.map((u) => (
            <PersonRow
              key={u.UserID}
              className={u.Disabled ? 'revoked' : undefined}
              name={u.Name}
              email={u.Email}
              role={u.Role}
              detailLabel="Since"
              detail={clock.date(u.CreatedAt)}
              actions={
                u.Disabled ? (
                  <span className="muted">disabled</span>
                ) : u.Email === session.data?.Email ? (
                  <span className="muted">you</span>
                ) : (
                  may('disableOperatorUser') && (
                    <button type="button" className="secondary small" onClick={() => disable.mutate(u.UserID)} disabled={disable.isPending}>
                      Disable
                    </button>
                  )
                )
              }
            />
          ))}
        </PeopleTable>
      )}
    </section>
  );
}

/** The users' and the invitations' tables: a person per row, the same columns but the fourth and the buttons. */
function PeopleTable({ detail, actions, children }: { detail: string; actions: string; children: ReactNode }) {
  return (
    <table className="table static">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">E-mail</th>
          <th scope="col">Role</th>
          <th scope="col">{detail}</th>
          <th scope="col">
            <span className="sr-only">{actions}</span>
          </th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

function PersonRow({
  name,
  email,
  role,
  detailLabel,
  detail,
  actions,
  className,
}: {
  name: string | null;
  email: string;
  role: OperatorRole;
  /** The fourth column's name, which a phone shows beside its value. */
  detailLabel: string;
  detail: ReactNode;
  actions: ReactNode;
  className?: string | undefined;
}) {
  return (
    <tr className={className}>
      <td data-label="Name" className="wrap-anywhere">
        {name ?? <span className="muted">—</span>}
      </td>
      <td data-label="E-mail" className="wrap-anywhere">
        {email}
      </td>
      <td data-label="Role">{ROLE_WORDS[role]}</td>
      <td data-label={detailLabel}>{detail}</td>
      <td data-label="">{actions}</td>
    </tr>
  );
}
