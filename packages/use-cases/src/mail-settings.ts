// The owner's customer e-mail settings: read, change (every template must render, each mistake named with its part
// and line), preview a template with sample values, send it as a test through the mail outbox, and switch a
// partner's customers on or off. Names and subjects are one line (the schemas refuse CR/LF), so no header can be forged.
// Each change is audited in its transaction: mail_settings.updated with the members (and each template) that changed,
// partner.customer_emails_changed with the switch.
import { randomUUID } from 'node:crypto';
import type { MailMessage, MailSettings, MailSettingsChanges, MailTemplateBody, RenderedMailBody } from '@backbone/contracts';
import {
  getMailSettings as findMailSettings,
  inTransaction,
  insertTestMail,
  recordAudit,
  retimeQueuedReminders,
  listMailMessages as findMailMessages,
  listPartnerCustomerEmails,
  saveMailSettings,
  setPartnerCustomerEmails as writePartnerCustomerEmails,
  type MailMessageRow,
  type MailSettingsRow,
  type Pool,
} from '@backbone/db';
import {
  auditChanges,
  DEFAULT_MAIL_TEMPLATES,
  MAIL_PLACEHOLDERS,
  notFound,
  renderMail,
  SAMPLE_MAIL_VALUES,
  templateErrors,
  ValidationError,
  type AuditActor,
  type FieldError,
  type MailTemplate,
  type TemplateKind,
} from '@backbone/domain';

const toBody = (t: MailTemplate): MailTemplateBody => ({ Subject: t.subject, Text: t.text, Html: t.html });
const fromBody = (t: MailTemplateBody): MailTemplate => ({ subject: t.Subject, text: t.Text, html: t.Html });
const templatesOf = (templates: Partial<Record<TemplateKind, MailTemplate>>) =>
  Object.fromEntries(Object.entries(templates).map(([kind, template]) => [kind, toBody(template)]));

type PartnerSwitch = Awaited<ReturnType<typeof listPartnerCustomerEmails>>[number];

function toMailSettings(row: MailSettingsRow, partners: PartnerSwitch[]): MailSettings {
  return {
    SenderName: row.senderName,
    ReplyTo: row.replyTo,
    OnlineEnabled: row.onlineEnabled,
    PosEnabled: row.posEnabled,
    ReminderHours: row.reminderHours,
    Locale: row.locale,
    Templates: templatesOf(row.templates),
    DefaultTemplates: templatesOf(DEFAULT_MAIL_TEMPLATES) as MailSettings['DefaultTemplates'],
    Placeholders: [...MAIL_PLACEHOLDERS],
    Partners: partners.map((p) => ({ PartnerID: p.id, Name: p.name, CustomerEmails: p.customerEmails })),
  };
}

export async function getMailSettings(deps: { pool: Pool }, accountId: string): Promise<MailSettings> {
  const [settings, partners] = await Promise.all([findMailSettings(deps.pool, accountId), listPartnerCustomerEmails(deps.pool, accountId)]);
  return toMailSettings(settings, partners);
}

function localeErrors(locale: string | undefined): FieldError[] {
  if (locale === undefined) return [];
  let supported: string[];
  try {
    supported = Intl.DateTimeFormat.supportedLocalesOf(locale);
  } catch {
    supported = [];
  }
  return supported.length > 0 ? [] : [{ field: 'Locale', message: `Locale ${locale} is not a locale dates can be written in.` }];
}

/** The settings as the audit records them: each template by its own member, null while it is the built-in one. */
function audited(row: MailSettingsRow): Record<string, unknown> {
  const { templates, ...members } = row;
  return {
    SenderName: members.senderName,
    ReplyTo: members.replyTo,
    OnlineEnabled: members.onlineEnabled,
    PosEnabled: members.posEnabled,
    ReminderHours: members.reminderHours,
    Locale: members.locale,
    ...Object.fromEntries(Object.keys(DEFAULT_MAIL_TEMPLATES).map((kind) => [`Templates.${kind}`, templates[kind] ? toBody(templates[kind]) : null])),
  };
}

export async function updateMailSettings(deps: { pool: Pool }, accountId: string, changes: MailSettingsChanges, actor: AuditActor): Promise<MailSettings> {
  const templates = changes.Templates ? Object.fromEntries(Object.entries(changes.Templates).map(([kind, body]) => [kind, fromBody(body)])) : undefined;
  const errors = [
    ...localeErrors(changes.Locale),
    ...Object.entries(templates ?? {}).flatMap(([kind, template]) => templateErrors(template, `Templates.${kind}.`)),
  ];
  if (errors.length > 0) throw new ValidationError(errors);
  const saved = await inTransaction(deps.pool, async (tx) => {
    const current = await findMailSettings(tx, accountId);
    const next = await saveMailSettings(tx, accountId, {
      senderName: changes.SenderName !== undefined ? changes.SenderName : current.senderName,
      replyTo: changes.ReplyTo !== undefined ? changes.ReplyTo : current.replyTo,
      onlineEnabled: changes.OnlineEnabled ?? current.onlineEnabled,
      posEnabled: changes.PosEnabled ?? current.posEnabled,
      reminderHours: changes.ReminderHours ?? current.reminderHours,
      locale: changes.Locale ?? current.locale,
      templates: templates ?? current.templates,
    });
    // Reminders already queued follow the new lead, in the same transaction as the setting.
    if (next.reminderHours !== current.reminderHours) await retimeQueuedReminders(tx, accountId, next.reminderHours);
    const changed = auditChanges(audited(current), audited(next));
    if (Object.keys(changed).length > 0) {
      await recordAudit(tx, accountId, {
        actor,
        action: 'mail_settings.updated',
        subject: { type: 'mail_settings', id: accountId, label: 'E-mail settings' },
        changes: changed,
      });
    }
    return next;
  });
  return toMailSettings(saved, await listPartnerCustomerEmails(deps.pool, accountId));
}

export interface MailTemplateRequest {
  Kind: TemplateKind;
  Template?: MailTemplateBody | undefined;
}

/** The template asked for rendered with sample values; a template that does not render is a 422 naming its line. */
async function renderSample(pool: Pool, accountId: string, request: MailTemplateRequest): Promise<RenderedMailBody> {
  const settings = await findMailSettings(pool, accountId);
  const template = request.Template ? fromBody(request.Template) : (settings.templates[request.Kind] ?? DEFAULT_MAIL_TEMPLATES[request.Kind]);
  const errors = templateErrors(template, 'Template.');
  if (errors.length > 0) throw new ValidationError(errors);
  const rendered = renderMail(template, { ...SAMPLE_MAIL_VALUES, ...(settings.senderName ? { accountName: settings.senderName } : {}) });
  return { Subject: rendered.subject, Text: rendered.text, Html: rendered.html };
}

export function previewMail(deps: { pool: Pool }, accountId: string, request: MailTemplateRequest): Promise<RenderedMailBody> {
  return renderSample(deps.pool, accountId, request);
}

export async function sendTestMail(deps: { pool: Pool }, accountId: string, request: MailTemplateRequest & { To: string }): Promise<MailMessage> {
  const rendered = await renderSample(deps.pool, accountId, request);
  const id = await insertTestMail(deps.pool, accountId, {
    dedupeKey: `test:${randomUUID()}`,
    to: request.To,
    subject: `[Test] ${rendered.Subject}`,
    text: rendered.Text,
    html: rendered.Html,
  });
  const [message] = await findMailMessages(deps.pool, accountId, { limit: 1, before: String(id + 1) });
  return toMailMessage(message!);
}

/** The account's messages, newest first, `limit` at a time below the id `before`. */
export async function listMailMessages(deps: { pool: Pool }, accountId: string, options: { limit: number; before: string | null }): Promise<MailMessage[]> {
  return (await findMailMessages(deps.pool, accountId, options)).map(toMailMessage);
}

function toMailMessage(row: MailMessageRow): MailMessage {
  return {
    MessageID: String(row.id),
    Kind: row.kind as MailMessage['Kind'],
    To: row.to,
    Subject: row.subject,
    Text: row.text,
    Html: row.html,
    Status: row.status,
    Attempts: row.attempts,
    LastError: row.lastError,
    NextAttemptAt: row.nextAttemptAt.toISOString(),
    SentAt: row.sentAt?.toISOString() ?? null,
    CreatedAt: row.createdAt.toISOString(),
    BookingReference: row.bookingReference,
  };
}

export async function setPartnerCustomerEmails(
  deps: { pool: Pool },
  request: { accountId: string; partnerId: string; enabled: boolean; actor: AuditActor },
): Promise<void> {
  await inTransaction(deps.pool, async (tx) => {
    const partner = await writePartnerCustomerEmails(tx, request.accountId, request.partnerId, request.enabled);
    if (!partner) throw notFound('Partner');
    if (partner.before === request.enabled) return;
    await recordAudit(tx, request.accountId, {
      actor: request.actor,
      action: 'partner.customer_emails_changed',
      subject: { type: 'partner', id: request.partnerId, label: partner.name },
      changes: { CustomerEmails: { From: partner.before, To: request.enabled } },
    });
  });
}
