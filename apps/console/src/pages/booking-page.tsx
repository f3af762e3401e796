// The account's online booking page: its link for everyone, and for owners its settings (on or off, the slug, the
// origins allowed to embed it, the note and terms shown before Book, the locale) and a snippet to embed it.
import { useEffect, useState, type FormEvent } from 'react';
import { operatorMay, type OperatorBookingPage } from '@backbone/contracts/browser';
import { useBookingPage, useUpdateBookingPage } from '../api/booking-page.hooks.js';
import { useSession } from '../api/session.hooks.js';
import { ErrorState, Loading, problemDetail } from '../components/states.js';

export function BookingPagePage() {
  const session = useSession();
  const page = useBookingPage();
  const mayEdit = session.data ? operatorMay(session.data.Role, 'updateOperatorBookingPage') : false;
  return (
    <div className="page">
      <div className="page-head">
        <h1>Booking page</h1>
      </div>
      {page.isPending && <Loading what="the booking page" />}
      {page.isError && <ErrorState error={page.error} />}
      {page.data && <PageLink page={page.data} />}
      {page.data && mayEdit && <Settings page={page.data} />}
    </div>
  );
}

function pageUrl(page: OperatorBookingPage): string | null {
  return page.Path ? new URL(page.Path, location.origin).href : null;
}

function PageLink({ page }: { page: OperatorBookingPage }) {
  const url = pageUrl(page);
  if (!url) return <p className="state">The booking page has no address yet: an owner chooses its slug below.</p>;
  return (
    <section className="card" aria-labelledby="page-link-heading">
      <h2 id="page-link-heading">Link</h2>
      <p>
        {page.Enabled ? 'Customers book at ' : 'Off: customers get “page not found” at '}
        <a href={url} target="_blank" rel="noopener">
          {url}
        </a>
      </p>
      <CopyButton text={url} label="Copy link" />
    </section>
  );
}

function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <>
      <button
        type="button"
        className="secondary small"
        onClick={() =>
          void navigator.clipboard?.writeText(text).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {label}
      </button>
      <span role="status" className="muted">
        {copied ? ' Copied.' : ''}
      </span>
    </>
  );
}

function embedSnippet(url: string): string {
  return `<iframe src="${url}" title="Book online" style="width:100%;min-height:900px;border:0" loading="lazy"></iframe>`;
}

function Settings({ page }: { page: OperatorBookingPage }) {
  const update = useUpdateBookingPage();
  const [enabled, setEnabled] = useState(page.Enabled);
  const [slug, setSlug] = useState(page.Slug ?? '');
  const [origins, setOrigins] = useState(page.EmbedOrigins.join('\n'));
  const [note, setNote] = useState(page.Note);
  const [terms, setTerms] = useState(page.Terms);
  const [locale, setLocale] = useState(page.Locale);
  const [holdMinutes, setHoldMinutes] = useState(String(page.HoldMinutes));
  const [offerMinutes, setOfferMinutes] = useState(String(page.WaitlistOfferMinutes));
  useEffect(() => {
    setEnabled(page.Enabled);
    setSlug(page.Slug ?? '');
    setOrigins(page.EmbedOrigins.join('\n'));
    setNote(page.Note);
    setTerms(page.Terms);
    setLocale(page.Locale);
    setHoldMinutes(String(page.HoldMinutes));
    setOfferMinutes(String(page.WaitlistOfferMinutes));
  }, [page]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({
      Enabled: enabled,
      ...(slug.trim() ? { Slug: slug.trim().toLowerCase() } : {}),
      EmbedOrigins: origins
        .split(/[\s,]+/)
        .map((o) => o.trim().replace(/\/+$/, ''))
        .filter(Boolean),
      Note: note,
      Terms: terms,
      Locale: locale.trim(),
      HoldMinutes: Number(holdMinutes),
      WaitlistOfferMinutes: Number(offerMinutes),
    });
  };
  const url = pageUrl(page);
  return (
    <>
      <form className="card" onSubmit={submit} aria-label="Booking page settings">
        <h2>Settings</h2>
        <label className="check">
          <input type="checkbox" name="Enabled" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          Customers can book online
        </label>
        <label>
          Slug
          <input
            name="Slug"
            value={slug}
            onChange={(e) => setSlug(e.target.value)}
            pattern="[a-z0-9][a-z0-9\-]{1,48}[a-z0-9]"
            aria-describedby="slug-hint"
            autoComplete="off"
          />
        </label>
        <p id="slug-hint" className="muted">
          The page&apos;s address ends in /book/<em>slug</em>: 3 to 50 lower-case letters, digits and hyphens.
        </p>
        <label>
          Sites allowed to embed the page
          <textarea name="EmbedOrigins" rows={3} value={origins} onChange={(e) => setOrigins(e.target.value)} aria-describedby="origins-hint" />
        </label>
        <p id="origins-hint" className="muted">
          One origin a line, such as https://www.example.com. Other sites cannot show the page in a frame.
        </p>
        <label>
          Note shown on the page
          <textarea name="Note" rows={3} value={note} onChange={(e) => setNote(e.target.value)} maxLength={2000} />
        </label>
        <label>
          Terms accepted with Book
          <textarea name="Terms" rows={5} value={terms} onChange={(e) => setTerms(e.target.value)} maxLength={10000} />
        </label>
        <label>
          Language and format of prices and dates
          <input name="Locale" value={locale} onChange={(e) => setLocale(e.target.value)} aria-describedby="locale-hint" />
        </label>
        <p id="locale-hint" className="muted">
          A locale such as en-GB, pt-PT or de-DE.
        </p>
        <label>
          Minutes places are held while a customer books
          <input
            name="HoldMinutes"
            type="number"
            min={5}
            max={60}
            required
            value={holdMinutes}
            onChange={(e) => setHoldMinutes(e.target.value)}
            aria-describedby="hold-hint"
          />
        </label>
        <p id="hold-hint" className="muted">
          From 5 to 60. A form left unfinished frees its places after this time.
        </p>
        <label>
          Minutes a waitlist offer is held
          <input
            name="WaitlistOfferMinutes"
            type="number"
            min={5}
            max={1440}
            required
            value={offerMinutes}
            onChange={(e) => setOfferMinutes(e.target.value)}
            aria-describedby="offer-hint"
          />
        </label>
        <p id="offer-hint" className="muted">
          From 5 to 1440 (a day). Places freed for a waitlist are held this long for the customer to claim; then they go to the next.
        </p>
        {update.isError && (
          <p className="form-error" role="alert">
            {problemDetail(update.error)}
          </p>
        )}
        {update.isSuccess && !update.isPending && (
          <p role="status" className="muted">
            Saved.
          </p>
        )}
        <div>
          <button type="submit" disabled={update.isPending}>
            Save
          </button>
        </div>
      </form>
      {url && (
        <section className="card" aria-labelledby="embed-heading">
          <h2 id="embed-heading">Embed on your site</h2>
          <p className="muted">Paste this where the page should appear; add your site&apos;s origin to the list above first.</p>
          <pre className="snippet">
            <code>{embedSnippet(url)}</code>
          </pre>
          <CopyButton text={embedSnippet(url)} label="Copy snippet" />
        </section>
      )}
    </>
  );
}
