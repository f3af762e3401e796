// Usage: a period and a time zone (in the URL), the event count, the per-meter table in the API's order and the per-day
// chart by meter. Every figure is the API's; the page only lays them out. Meters count different things (SMS, API
// calls, orders), so their usage is never added into one total.
import { useState, type FormEvent } from 'react';
import { useAccountTime } from '../api/account-time.js';
import { addDays } from '../api/dates.js';
import { useSession } from '../api/session.hooks.js';
import { useUsage } from '../api/usage.hooks.js';
import { useUrlState } from '../api/url-state.js';
import { Empty, ErrorState, Loading } from '../components/states.js';
import { UsageChart } from '../components/usage-chart.js';

const URL_STATE = ['From', 'To', 'TimeZone'] as const;
const number = new Intl.NumberFormat(undefined, { maximumFractionDigits: 6 });

export function UsagePage() {
  const [state, setState] = useUrlState(URL_STATE);
  const session = useSession();
  const today = useAccountTime().today();
  const from = state.From ?? addDays(today, -29);
  const to = state.To ?? today;
  const usage = useUsage({ From: from, To: to, TimeZone: state.TimeZone });
  const [draft, setDraft] = useState({ From: from, To: to, TimeZone: state.TimeZone ?? '' });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setState({ From: draft.From, To: draft.To, TimeZone: draft.TimeZone.trim() || null });
  };
  return (
    <div className="page">
      <div className="page-head">
        <h1>Usage</h1>
      </div>
      <form className="filters" onSubmit={apply} aria-label="Period">
        <label>
          From
          <input type="date" name="From" required value={draft.From} onChange={(e) => setDraft({ ...draft, From: e.target.value })} />
        </label>
        <label>
          To
          <input type="date" name="To" required value={draft.To} onChange={(e) => setDraft({ ...draft, To: e.target.value })} />
        </label>
        <label className="grow">
          Time zone
          <input
            name="TimeZone"
            placeholder={session.data?.TimeZone ?? 'Account time zone'}
            value={draft.TimeZone}
            onChange={(e) => setDraft({ ...draft, TimeZone: e.target.value })}
          />
        </label>
        <button type="submit">Show</button>
      </form>
      {usage.isPending && <Loading what="usage" />}
      {usage.isError && <ErrorState error={usage.error} />}
      {usage.data && (
        <>
          <div className="totals" aria-label="Totals">
            <div className="card total">
              <span className="label">Events</span>
              <span className="value" data-total="events">
                {number.format(usage.data.Totals.Events)}
              </span>
            </div>
            <div className="card total">
              <span className="label">Period</span>
              <span className="value small">
                {usage.data.Period.From} – {usage.data.Period.To}
              </span>
            </div>
          </div>
          {usage.data.Meters.length === 0 ? (
            <Empty>No usage in this period.</Empty>
          ) : (
            <>
              <section className="card">
                <h2>Per day</h2>
                <UsageChart summary={usage.data} />
              </section>
              <table className="table static meters">
                <thead>
                  <tr>
                    <th scope="col">Meter</th>
                    <th scope="col" className="num">
                      Usage
                    </th>
                    <th scope="col" className="num">
                      Events
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {usage.data.Meters.map((m) => (
                    <tr key={m.Meter} data-meter={m.Meter}>
                      <td data-label="Meter">{m.Meter}</td>
                      <td data-label="Usage" className="num" data-usage={m.TotalUsage}>
                        {number.format(m.TotalUsage)}
                      </td>
                      <td data-label="Events" className="num">
                        {number.format(m.EventCount)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
        </>
      )}
    </div>
  );
}
