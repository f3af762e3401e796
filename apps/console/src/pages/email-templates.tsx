// The owner's e-mail templates and settings: pick a kind, edit its subject, text and HTML with a live preview (sample
// values; a template that does not render shows the line), save it, or send it as a test; the sender, reply-to,
// channels and reminder lead above. Rendering and its rules live in the API, never only here.
import { useDeferredValue, useEffect, useState, type FormEvent } from 'react';
import type { MailSettings, MailTemplateBody } from '@backbone/contracts/browser';
import { ApiProblem } from '../api/client.js';
import { useMailPreview, useMailSettings, useSendTestMail, useSetPartnerCustomerEmails, useUpdateMailSettings, type TemplateKind } from '../api/mail.hooks.js';
import { ErrorState, Loading } from '../components/states.js';

const KINDS: { kind: TemplateKind; label: string }[] = [
  { kind: 'confirmation', label: 'Confirmation' },
  { kind: 'change', label: 'Change' },
  { kind: 'cancellation', label: 'Cancellation' },
  { kind: 'reminder', label: 'Reminder' },
  { kind: 'waitlist-offer', label: 'Waitlist offer' },
];

function SettingsForm({ settings }: { settings: MailSettings }) {
  const update = useUpdateMailSettings();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
    };
    update.mutate({
      SenderName: text('SenderName'),
      ReplyTo: text('ReplyTo'),
      ReminderHours: Number(form.get('ReminderHours')),
      OnlineEnabled: form.get('OnlineEnabled') === 'on',
      PosEnabled: form.get('PosEnabled') === 'on',
    });
  };
  return (
    <form className="form mail-settings" aria-label="E-mail settings" onSubmit={submit}>
      <label>
        Sender name
        <input name="SenderName" defaultValue={settings.SenderName ?? ''} maxLength={200} />
      </label>
      <label>
        Reply-to address
        <input name="ReplyTo" type="email" defaultValue={settings.ReplyTo ?? ''} />
      </label>
      <label>
        Reminder, hours before (0: none)
        <input name="ReminderHours" type="number" min={0} max={336} defaultValue={settings.ReminderHours} />
      </label>
      <label className="check">
        <input name="OnlineEnabled" type="checkbox" defaultChecked={settings.OnlineEnabled} /> E-mail online shop customers
      </label>
      <label className="check">
        <input name="PosEnabled" type="checkbox" defaultChecked={settings.PosEnabled} /> E-mail point of sale customers
      </label>
      <button type="submit" disabled={update.isPending}>
        Save settings
      </button>
      {update.isError && <ErrorState error={update.error} />}
      {update.isSuccess && (
        <p className="state state-ok" role="status">
          Settings saved.
        </p>
      )}
    </form>
  );
}

/** Each partner's customers e-mailed or not: switched one at a time, at once (no save button to forget). */
function PartnerSwitches({ partners }: { partners: MailSettings['Partners'] }) {
  const toggle = useSetPartnerCustomerEmails();
  if (partners.length === 0) return null;
  return (
    <fieldset className="form mail-partners">
      <legend>Partners' customers</legend>
      <p className="hint">Most resellers write to their own customers: their bookings get no e-mail from you unless switched on here.</p>
      {partners.map((partner) => (
        <label key={partner.PartnerID} className="check">
          <input
            type="checkbox"
            checked={partner.CustomerEmails}
            disabled={toggle.isPending}
            onChange={(event) => toggle.mutate({ PartnerID: partner.PartnerID, Enabled: event.currentTarget.checked })}
          />{' '}
          E-mail customers of {partner.Name}
        </label>
      ))}
      {toggle.isError && <ErrorState error={toggle.error} />}
    </fieldset>
  );
}

function problemLines(error: unknown): string[] {
  if (error instanceof ApiProblem) return error.problem.errors?.map((e) => e.message) ?? [error.message];
  return error instanceof Error ? [error.message] : [];
}

function TemplateEditor({ settings, kind }: { settings: MailSettings; kind: TemplateKind }) {
  const saved = settings.Templates[kind] ?? settings.DefaultTemplates[kind];
  const [draft, setDraft] = useState<MailTemplateBody>(saved);
  const [to, setTo] = useState('');
  useEffect(() => setDraft(saved), [kind, saved]);
  const preview = useMailPreview(kind, useDeferredValue(draft));
  const update = useUpdateMailSettings();
  const test = useSendTestMail();
  const save = (template: MailTemplateBody | null) => {
    const rest = Object.fromEntries(Object.entries(settings.Templates).filter(([k]) => k !== kind));
    update.mutate({ Templates: template ? { ...rest, [kind]: template } : rest });
  };
  const field = (part: keyof MailTemplateBody, label: string, rows?: number) => (
    <label>
      {label}
      {rows ? (
        <textarea name={part} rows={rows} value={draft[part]} onChange={(e) => setDraft({ ...draft, [part]: e.target.value })} />
      ) : (
        <input name={part} value={draft[part]} onChange={(e) => setDraft({ ...draft, [part]: e.target.value })} />
      )}
    </label>
  );
  return (
    <div className="mail-editor">
      <form className="form" aria-label={`The ${kind} template`} onSubmit={(e) => (e.preventDefault(), save(draft))}>
        {field('Subject', 'Subject')}
        {field('Text', 'Plain text', 10)}
        {field('Html', 'HTML', 10)}
        <p className="hint">Placeholders: {settings.Placeholders.map((p) => `{{${p}}}`).join(' ')}</p>
        <div className="actions">
          <button type="submit" disabled={update.isPending}>
            Save template
          </button>
          <button type="button" className="secondary" onClick={() => save(null)} disabled={update.isPending || !settings.Templates[kind]}>
            Back to the built-in one
          </button>
        </div>
        {update.isError && (
          <ul className="state state-error" role="alert">
            {problemLines(update.error).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        )}
        {update.isSuccess && (
          <p className="state state-ok" role="status">
            Template saved.
          </p>
        )}
      </form>
      <section className="mail-preview" aria-label="Preview">
        <h2>Preview</h2>
        {preview.isError && (
          <ul className="state state-error" role="alert">
            {problemLines(preview.error).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        )}
        {preview.data && (
          <>
            <p className="mail-subject">{preview.data.Subject}</p>
            <iframe title="HTML preview" sandbox="" srcDoc={preview.data.Html} className="mail-frame" />
            <pre className="mail-text">{preview.data.Text}</pre>
          </>
        )}
        <form
          className="form inline"
          aria-label="Send a test"
          onSubmit={(e) => {
            e.preventDefault();
            test.mutate({ Kind: kind, To: to, Template: draft });
          }}
        >
          <label>
            Send a test to
            <input name="To" type="email" required value={to} onChange={(e) => setTo(e.target.value)} />
          </label>
          <button type="submit" disabled={test.isPending}>
            Send test
          </button>
        </form>
        {test.isError && <ErrorState error={test.error} />}
        {test.isSuccess && (
          <p className="state state-ok" role="status">
            Test queued to {test.data.To}: it appears on the E-mails page.
          </p>
        )}
      </section>
    </div>
  );
}

export function EmailTemplatesPage() {
  const settings = useMailSettings();
  const [kind, setKind] = useState<TemplateKind>('confirmation');
  return (
    <div className="page">
      <div className="page-head">
        <h1>E-mail templates</h1>
      </div>
      {settings.isPending && <Loading what="the e-mail settings" />}
      {settings.isError && <ErrorState error={settings.error} />}
      {settings.data && (
        <>
          <SettingsForm settings={settings.data} />
          <PartnerSwitches partners={settings.data.Partners} />
          <div className="tabs" role="tablist" aria-label="Template">
            {KINDS.map((k) => (
              <button
                key={k.kind}
                type="button"
                role="tab"
                aria-selected={kind === k.kind}
                className={kind === k.kind ? 'tab active' : 'tab'}
                onClick={() => setKind(k.kind)}
              >
                {k.label}
              </button>
            ))}
          </div>
          <TemplateEditor settings={settings.data} kind={kind} />
        </>
      )}
    </div>
  );
}
