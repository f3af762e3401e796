// A booking's history in the panel, oldest first: what happened, when, who (the partner and its key, the operator
// user, or the system) and why.
import type { listOperatorBookingHistoryOperation, ResultOf } from '@backbone/contracts/browser';
import { useAccountTime } from '../api/account-time.js';
import { useBookingHistory } from '../api/bookings.hooks.js';
import { changeSummary } from './change-summary.js';
import { ErrorState, Loading } from './states.js';

type HistoryItem = ResultOf<typeof listOperatorBookingHistoryOperation>['Items'][number];

/** Each action in words; typed by the vocabulary, so a new action cannot be left without one. */
const ACTION_WORDS: Record<HistoryItem['Action'], string> = {
  created: 'Booked',
  held: 'Held',
  confirmed: 'Confirmed',
  rescheduled: 'Rescheduled',
  edited: 'Edited',
  'checked-in': 'Checked in',
  'check-in-undone': 'Check-in undone',
  cancelled: 'Cancelled',
  expired: 'Expired',
  repriced: 'Price set by hand',
};

// The partner by name; its key's internal id says nothing to the desk (the audit log names keys).
function who(actor: HistoryItem['Actor']): string {
  if (actor.Kind === 'partner') return actor.PartnerName ?? 'A partner';
  if (actor.Kind === 'user') return actor.UserEmail ?? 'A console user';
  return 'System';
}

export function BookingHistory({ reference }: { reference: string }) {
  const history = useBookingHistory(reference);
  const clock = useAccountTime();
  return (
    <section aria-label="History">
      <h3>History</h3>
      {history.isPending && <Loading what="the history" />}
      {history.isError && <ErrorState error={history.error} />}
      {history.data && (
        <ol className="history">
          {history.data.Items.map((item, i) => (
            <li key={i} data-action={item.Action}>
              <span className="history-what">{ACTION_WORDS[item.Action]}</span>{' '}
              <time className="muted" dateTime={item.At}>
                {clock.dateTime(item.At)}
              </time>
              <span className="history-who">{who(item.Actor)}</span>
              {item.Reason && <span className="history-reason">“{item.Reason}”</span>}
              {changeSummary(item.Changes) && <span className="history-changes muted">{changeSummary(item.Changes)}</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
