// Sales: bookings, participants and revenue of a period (inclusive; in the URL) of the days the bookings take place on
// or of the days they were booked on (the end of the day's "what did we sell today"), with Today / Yesterday / This
// month at one click, per currency, by channel, by partner and by activity, the cancelled ones apart, and the report as
// CSV. Every figure is the API's; currencies are never added up.
import { useState, type FormEvent } from 'react';
import { SALES_REPORT_DATES, type getOperatorSalesReportOperation, type ResultOf, type SalesReportDate } from '@backbone/contracts/browser';
import { useAccountTime } from '../api/account-time.js';
import { addDays } from '../api/dates.js';
import { useSalesReport } from '../api/reports.hooks.js';
import { formatMoney } from '../api/money.js';
import { useUrlState } from '../api/url-state.js';
import { Empty, ErrorState, Loading } from '../components/states.js';
import { PAYMENT_WORDS } from '../components/words.js';

type SalesReport = ResultOf<typeof getOperatorSalesReportOperation>;
type CurrencySales = SalesReport['Currencies'][number];
interface Figures {
  Bookings: number;
  Participants: number;
  RevenueMinor: number;
}

const URL_STATE = ['From', 'To', 'By'] as const;
const DATE_WORDS: Record<SalesReportDate, string> = { takes_place: 'Takes place on', booked: 'Booked on' };
const isDate = (value: string | undefined): value is SalesReportDate => (SALES_REPORT_DATES as readonly string[]).includes(value ?? '');
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
      <Breakdown
        title="Paid by (the desk's cash-up)"
        currency={c}
        rows={sales.ByPaymentMethod.map((r) => ({ ...r, key: r.PaymentMethod, name: PAYMENT_WORDS[r.PaymentMethod] }))}
      />
    </section>
  );
}

/** A spreadsheet cell: quoted, and a leading = + - @ made text (a name is never run as a formula). */
function cell(value: string | number): string {
  const text = String(value);
  const safe = typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The report as the page shows it, one row per figure line; amounts in major units beside their currency. */
function reportCsv(report: SalesReport): string {
  const lines = [['Currency', 'Section', 'Name', 'Bookings', 'Participants', 'Revenue'].map(cell).join(',')];
  for (const sales of report.Currencies) {
    const digits = new Intl.NumberFormat('en', { style: 'currency', currency: sales.Currency }).resolvedOptions().maximumFractionDigits ?? 2;
    const row = (section: string, name: string, f: Figures) =>
      lines.push([sales.Currency, section, name, f.Bookings, f.Participants, (f.RevenueMinor / 10 ** digits).toFixed(digits)].map(cell).join(','));
    row('Total', '', sales);
    for (const r of sales.ByChannel) row('Channel', r.Channel, r);
    for (const r of sales.ByPartner) row('Partner', r.PartnerName, r);
    for (const r of sales.ByActivity) row('Activity', r.ActivityName, r);
    for (const r of sales.ByPaymentMethod) row('Paid by', PAYMENT_WORDS[r.PaymentMethod], r);
    row('Cancelled', '', sales.Cancelled);
  }
  // A byte order mark, so that a spreadsheet reads the names as UTF-8.
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

function CsvLink({ report }: { report: SalesReport }) {
  const href = `data:text/csv;charset=utf-8,${encodeURIComponent(reportCsv(report))}`;
  const name = `sales-${report.By === 'booked' ? 'booked' : 'taking-place'}-${report.From}-to-${report.To}.csv`;
  return (
    <a className="button secondary" href={href} download={name}>
      Export CSV
    </a>
  );
}

export function ReportsPage() {
  const [state, setState] = useUrlState(URL_STATE);
  const today = useAccountTime().today();
  const from = state.From ?? addDays(today, -29);
  const to = state.To ?? today;
  const by: SalesReportDate = isDate(state.By) ? state.By : 'takes_place';
  const report = useSalesReport({ From: from, To: to, By: by });
  const [draft, setDraft] = useState({ From: from, To: to });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setState({ From: draft.From, To: draft.To });
  };
  const show = (range: { From: string; To: string }) => {
    setDraft(range);
    setState(range);
  };
  const shortcuts = [
    { label: 'Today', From: today, To: today },
    { label: 'Yesterday', From: addDays(today, -1), To: addDays(today, -1) },
    { label: 'This month', From: `${today.slice(0, 8)}01`, To: today },
  ];
  return (
    <div className="page">
      <div className="page-head">
        <h1>Sales</h1>
        {report.data && report.data.Currencies.length > 0 && <CsvLink report={report.data} />}
      </div>
      <form className="filters" onSubmit={apply} aria-label="Period">
        <label>
          Dates of
          <select name="By" value={by} onChange={(e) => setState({ By: e.target.value === 'takes_place' ? null : e.target.value })}>
            {SALES_REPORT_DATES.map((d) => (
              <option key={d} value={d}>
                {DATE_WORDS[d]}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" name="From" required value={draft.From} onChange={(e) => setDraft({ ...draft, From: e.target.value })} />
        </label>
        <label>
          To
          <input type="date" name="To" required value={draft.To} onChange={(e) => setDraft({ ...draft, To: e.target.value })} />
        </label>
        <button type="submit">Show</button>
        <div className="week-nav" role="group" aria-label="Shortcuts">
          {shortcuts.map((s) => (
            <button
              key={s.label}
              type="button"
              className="secondary"
              aria-pressed={from === s.From && to === s.To}
              onClick={() => show({ From: s.From, To: s.To })}
            >
              {s.label}
            </button>
          ))}
        </div>
      </form>
      {report.isPending && <Loading what="sales" />}
      {report.isError && <ErrorState error={report.error} />}
      {report.data &&
        (report.data.Currencies.length === 0 ? (
          <Empty>No bookings {by === 'booked' ? 'were made on these days' : 'take place on these days'}.</Empty>
        ) : (
          report.data.Currencies.map((sales) => <CurrencyReport key={sales.Currency} sales={sales} />)
        ))}
    </div>
  );
}
