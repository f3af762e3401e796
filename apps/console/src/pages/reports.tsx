// Sales: bookings, participants and revenue of a period (by slot date, inclusive; in the URL) per currency, by channel,
// by partner and by activity, with the cancelled ones apart. Every figure is the API's; currencies are never added up.
import { useState, type FormEvent } from 'react';
import type { getOperatorSalesReportOperation, ResultOf } from '@backbone/contracts/browser';
import { useAccountTime } from '../api/account-time.js';
import { addDays } from '../api/dates.js';
import { useSalesReport } from '../api/reports.hooks.js';
import { formatMoney } from '../api/money.js';
import { useUrlState } from '../api/url-state.js';
import { Empty, ErrorState, Loading } from '../components/states.js';

type CurrencySales = ResultOf<typeof getOperatorSalesReportOperation>['Currencies'][number];
interface Figures {
  Bookings: number;
  Participants: number;
  RevenueMinor: number;
}

const URL_STATE = ['From', 'To'] as const;
const count = new Intl.NumberFormat();

function Breakdown({ title, currency, rows }: { title: string; currency: string; rows: readonly (Figures & { key: string; name: string })[] }) {
  if (rows.length === 0) return null;
  return (
    <table className="table static report-table" aria-label={`${title} (${currency})`}>
      <thead>
        <tr>
          <th scope="col">{title}</th>
          <th scope="col" className="num">
            Bookings
          </th>
          <th scope="col" className="num">
            Participants
          </th>
          <th scope="col" className="num">
            Revenue
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} data-row={row.key}>
            <td data-label={title}>{row.name}</td>
            <td data-label="Bookings" className="num">
              {count.format(row.Bookings)}
            </td>
            <td data-label="Participants" className="num">
              {count.format(row.Participants)}
            </td>
            <td data-label="Revenue" className="num" data-revenue-minor={row.RevenueMinor}>
              {formatMoney(row.RevenueMinor, currency)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CurrencyReport({ sales }: { sales: CurrencySales }) {
  const c = sales.Currency;
  return (
    <section className="card report" aria-label={`Sales in ${c}`} data-currency={c}>
      <h2>{c}</h2>
      <div className="totals">
        <div className="total">
          <span className="label">Revenue</span>
          <span className="value" data-total="revenue" data-minor={sales.RevenueMinor}>
            {formatMoney(sales.RevenueMinor, c)}
          </span>
        </div>
        <div className="total">
          <span className="label">Bookings</span>
          <span className="value" data-total="bookings">
            {count.format(sales.Bookings)}
          </span>
        </div>
        <div className="total">
          <span className="label">Participants</span>
          <span className="value" data-total="participants">
            {count.format(sales.Participants)}
          </span>
        </div>
        <div className="total">
          <span className="label">Cancelled (not counted above)</span>
          <span className="value small" data-total="cancelled">
            {count.format(sales.Cancelled.Bookings)} bookings, {count.format(sales.Cancelled.Participants)} participants,{' '}
            {formatMoney(sales.Cancelled.RevenueMinor, c)}
          </span>
        </div>
      </div>
      <Breakdown title="Channel" currency={c} rows={sales.ByChannel.map((r) => ({ ...r, key: r.Channel, name: r.Channel }))} />
      <Breakdown title="Partner" currency={c} rows={sales.ByPartner.map((r) => ({ ...r, key: r.PartnerID, name: r.PartnerName }))} />
      <Breakdown title="Activity" currency={c} rows={sales.ByActivity.map((r) => ({ ...r, key: r.ActivityID, name: r.ActivityName }))} />
    </section>
  );
}

export function ReportsPage() {
  const [state, setState] = useUrlState(URL_STATE);
  const today = useAccountTime().today();
  const from = state.From ?? addDays(today, -29);
  const to = state.To ?? today;
  const report = useSalesReport({ From: from, To: to });
  const [draft, setDraft] = useState({ From: from, To: to });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setState({ From: draft.From, To: draft.To });
  };
  return (
    <div className="page">
      <div className="page-head">
        <h1>Sales</h1>
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
        <button type="submit">Show</button>
      </form>
      {report.isPending && <Loading what="sales" />}
      {report.isError && <ErrorState error={report.error} />}
      {report.data &&
        (report.data.Currencies.length === 0 ? (
          <Empty>No bookings in this period.</Empty>
        ) : (
          report.data.Currencies.map((sales) => <CurrencyReport key={sales.Currency} sales={sales} />)
        ))}
    </div>
  );
}
