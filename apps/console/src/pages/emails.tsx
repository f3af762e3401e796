// The E-mails page (owners): every message the account sent or will send, newest first: recipient, subject, status,
// attempts and the last refusal; a row opens the rendered message (its HTML in a sandboxed frame, scripts never run).
import { useState } from 'react';
import type { MailMessage } from '@backbone/contracts/browser';
import { useMailMessages } from '../api/mail.hooks.js';
import { useAccountTime } from '../api/account-time.js';
import { Empty, ErrorState, Loading } from '../components/states.js';

function RenderedMessage({ message }: { message: MailMessage }) {
  if (message.Subject === null) return <p className="state">Rendered when it is due.</p>;
  return (
    <div className="mail-rendered">
      <iframe title={`The message to ${message.To}`} sandbox="" srcDoc={message.Html ?? ''} className="mail-frame" />
      <pre className="mail-text">{message.Text}</pre>
    </div>
  );
}

export function EmailsPage() {
  const messages = useMailMessages();
  const [open, setOpen] = useState<string | null>(null);
  const clock = useAccountTime();
  const rows = messages.data?.pages.flatMap((page) => page.Messages) ?? [];
  return (
    <div className="page">
      <div className="page-head">
        <h1>E-mails</h1>
      </div>
      {messages.isPending && <Loading what="the e-mails" />}
      {messages.isError && <ErrorState error={messages.error} />}
      {messages.data && rows.length === 0 && <Empty>No e-mails yet: confirmations, changes, cancellations and reminders appear here.</Empty>}
      {rows.length > 0 && (
        <table className="table static mail-table">
          <thead>
            <tr>
              <th scope="col">Created</th>
              <th scope="col">Kind</th>
              <th scope="col">To</th>
              <th scope="col">Subject</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((m) => [
              <tr key={m.MessageID} data-message={m.MessageID} data-status={m.Status}>
                <td data-label="Created">
                  <time dateTime={m.CreatedAt}>{clock.dateTime(m.CreatedAt)}</time>
                </td>
                <td data-label="Kind">{m.Kind}</td>
                <td data-label="To">{m.To}</td>
                <td data-label="Subject">
                  <button
                    type="button"
                    className="link"
                    aria-expanded={open === m.MessageID}
                    onClick={() => setOpen(open === m.MessageID ? null : m.MessageID)}
                  >
                    {m.Subject ?? `(${m.Kind}, due ${clock.dateTime(m.NextAttemptAt)})`}
                  </button>
                </td>
                <td data-label="Status" title={m.LastError ?? undefined}>
                  {m.Status}
                  {m.LastError && m.Status !== 'sent' ? `: ${m.LastError}` : ''}
                </td>
                <td data-label="Attempts">{m.Attempts}</td>
              </tr>,
              open === m.MessageID && (
                <tr key={`${m.MessageID}-open`} className="mail-open">
                  <td colSpan={6}>
                    <RenderedMessage message={m} />
                  </td>
                </tr>
              ),
            ])}
          </tbody>
        </table>
      )}
      {messages.hasNextPage && (
        <div className="pager">
          <button type="button" className="secondary" onClick={() => void messages.fetchNextPage()} disabled={messages.isFetchingNextPage}>
            {messages.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        </div>
      )}
    </div>
  );
}
