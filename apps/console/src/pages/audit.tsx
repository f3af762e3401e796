// The audit log (owners): what owners, scripts and the admin CLI did to activities, the schedule, keys and users, newest
// first, in the account's time zone; filtered by action (kept in the URL), "Load more" for the next page.
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from '@backbone/contracts/browser';
import { useAudit } from '../api/reports.hooks.js';
import { useAccountTime } from '../api/account-time.js';
import { useUrlState } from '../api/url-state.js';
import { changeSummary } from '../components/change-summary.js';
import { Empty, ErrorState, Loading } from '../components/states.js';

/** Each action in words; typed by the vocabulary, so a new action cannot be left without one. */
const ACTION_WORDS: Record<AuditAction, string> = {
  'activity.created': 'Activity created',
  'activity.updated': 'Activity edited',
  'question.added': 'Waiver question added',
  'timeslots.generated': 'Timeslots generated',
  'timeslots.removed': 'Empty timeslots removed',
  'timeslot.closed': 'Timeslot closed',
  'timeslot.reopened': 'Timeslot reopened',
  'timeslot.capacity_changed': 'Capacity changed',
  'key.created': 'API key created',
  'key.revoked': 'API key revoked',
  'key.rate_limit_changed': 'Key rate limit changed',
  'user.created': 'User added',
  'user.disabled': 'User disabled',
  'password.changed': 'Password changed',
  'booking_page.updated': 'Booking page changed',
  'mail_settings.updated': 'E-mail settings changed',
  'partner.customer_emails_changed': "Partner's customer e-mails switched",
  'invitation.created': 'User invited',
  'invitation.resent': 'Invitation sent again',
  'invitation.revoked': 'Invitation withdrawn',
  'invitation.accepted': 'Invitation accepted',
  'password.reset': 'Password reset by e-mail',
  'booking.price_changed': 'Price set by hand',
  'booking.overbooked': 'Sold past capacity',
};

const CREATIONS: readonly AuditAction[] = [
  'activity.created',
  'question.added',
  'timeslots.generated',
  'key.created',
  'user.created',
  'invitation.created',
  'booking.overbooked',
];

const isAction = (value: string | undefined): value is AuditAction => (AUDIT_ACTIONS as readonly string[]).includes(value ?? '');

function who(actor: AuditEntry['Actor']): string {
  if (actor.Kind === 'user') return actor.Label ?? 'A console user';
  if (actor.Kind === 'key') return `API key “${actor.Label ?? actor.ID}”`;
  return actor.Kind === 'cli' ? 'Admin CLI' : 'System';
}

const URL_STATE = ['Action'] as const;

export function AuditPage() {
  const [state, setState] = useUrlState(URL_STATE);
  const action = isAction(state.Action) ? state.Action : null;
  const audit = useAudit(action);
  const clock = useAccountTime();
  const entries = audit.data?.pages.flatMap((page) => page.Entries) ?? [];
  return (
    <div className="page">
      <div className="page-head">
        <h1>Audit log</h1>
      </div>
      <form className="filters" role="search" aria-label="Filter the audit log" onSubmit={(event) => event.preventDefault()}>
        <label>
          Action
          <select name="Action" value={action ?? ''} onChange={(event) => setState({ Action: event.target.value || null })}>
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {ACTION_WORDS[a]}
              </option>
            ))}
          </select>
        </label>
      </form>
      {audit.isPending && <Loading what="the audit log" />}
      {audit.isError && <ErrorState error={audit.error} />}
      {audit.data && entries.length === 0 && <Empty>Nothing recorded{action ? ' for this action' : ''} yet.</Empty>}
      {entries.length > 0 && (
        <table className="table static audit-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Action</th>
              <th scope="col">Subject</th>
              <th scope="col">Changes</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.ID} data-action={e.Action} data-subject={e.Subject.ID}>
                <td data-label="When" className="when">
                  <time dateTime={e.At}>{clock.dateTime(e.At)}</time>
                </td>
                <td data-label="Who" className="audit-who">
                  {who(e.Actor)}
                </td>
                <td data-label="Action">{ACTION_WORDS[e.Action]}</td>
                <td data-label="Subject" className="audit-subject">
                  {e.Subject.Label}
                </td>
                <td data-label="Changes" className="audit-changes">
                  {changeSummary(e.Changes, CREATIONS.includes(e.Action)) || '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {audit.hasNextPage && (
        <div className="pager">
          <button type="button" className="secondary" onClick={() => void audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>
            {audit.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        </div>
      )}
    </div>
  );
}
