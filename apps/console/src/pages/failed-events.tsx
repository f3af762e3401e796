// Failed platform events of the account, each with a Replay button (the job goes back to its queue).
import { useAccountTime } from '../api/account-time.js';
import { useMay } from '../api/session.hooks.js';
import { useFailedEvents, useReplayFailedEvent } from '../api/usage.hooks.js';
import { Empty, ErrorState, Loading } from '../components/states.js';

export function FailedEventsPage() {
  const may = useMay();
  const clock = useAccountTime();
  const events = useFailedEvents();
  const replay = useReplayFailedEvent();
  return (
    <div className="page">
      <div className="page-head">
        <h1>Failed events</h1>
        <button type="button" className="secondary" onClick={() => void events.refetch()} disabled={events.isFetching}>
          Refresh
        </button>
      </div>
      {replay.isError && <ErrorState error={replay.error} />}
      {replay.isSuccess && (
        <p className="state state-ok" role="status">
          Replayed: the event is queued again.
        </p>
      )}
      {events.isPending && <Loading what="failed events" />}
      {events.isError && <ErrorState error={events.error} />}
      {events.data && events.data.length === 0 && <Empty>No failed events: every platform event was processed.</Empty>}
      {events.data && events.data.length > 0 && (
        <table className="table static">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Type</th>
              <th scope="col">Failed at</th>
              <th scope="col">Attempts</th>
              <th scope="col">Reason</th>
              <th scope="col">
                <span className="sr-only">Replay</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {events.data.map((e) => (
              <tr key={e.JobID} data-job={e.JobID}>
                <td data-label="Event" className="mono">
                  {e.JobID.split('.').slice(1).join('.')}
                </td>
                <td data-label="Type">{e.Name}</td>
                <td data-label="Failed at">{e.FailedAt ? clock.dateTime(e.FailedAt) : '—'}</td>
                <td data-label="Attempts">
                  {e.AttemptsMade}/{e.Attempts}
                </td>
                <td data-label="Reason" className="reason">
                  {e.FailedReason}
                </td>
                <td data-label="">
                  {may('replayFailedEvent') && (
                    <button type="button" className="small" onClick={() => replay.mutate(e.JobID)} disabled={replay.isPending} aria-label={`Replay ${e.JobID}`}>
                      Replay
                    </button>
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
