// The mail outbox and each account's mail settings. Booking e-mails are written by the trigger of migration
// 1763871420000 in the transaction of the change that causes them; the mail worker claims the due ones across
// accounts (FOR UPDATE SKIP LOCKED, so two workers never take one row), sends them and records the outcome in the
// same transaction, and then publishes each sent message's workflow-email.sent event (its EventID fixed at insert).
import { STAFF_MAIL_KINDS } from '@backbone/domain';
import type { Db, DbClient } from './pool.js';

export type MailStatus = 'queued' | 'sent' | 'failed' | 'cancelled';

export interface MailSettingsRow {
  senderName: string | null;
  replyTo: string | null;
  onlineEnabled: boolean;
  posEnabled: boolean;
  reminderHours: number;
  locale: string;
  /** The kinds the owner rewrote: { kind: { subject, text, html } }. */
  templates: Record<string, { subject: string; text: string; html: string }>;
}

export const DEFAULT_MAIL_SETTINGS: MailSettingsRow = {
  senderName: null,
  replyTo: null,
  onlineEnabled: true,
  posEnabled: true,
  reminderHours: 24,
  locale: 'en-GB',
  templates: {},
};

interface SettingsColumns {
  sender_name: string | null;
  reply_to: string | null;
  online_enabled: boolean;
  pos_enabled: boolean;
  reminder_hours: number;
  locale: string;
  templates: MailSettingsRow['templates'];
}
const toSettings = (row: SettingsColumns | undefined): MailSettingsRow =>
  row
    ? {
        senderName: row.sender_name,
        replyTo: row.reply_to,
        onlineEnabled: row.online_enabled,
        posEnabled: row.pos_enabled,
        reminderHours: row.reminder_hours,
        locale: row.locale,
        templates: row.templates,
      }
    : DEFAULT_MAIL_SETTINGS;

export async function getMailSettings(db: Db, accountId: string): Promise<MailSettingsRow> {
  const { rows } = await db.query<SettingsColumns>(
    `SELECT sender_name, reply_to, online_enabled, pos_enabled, reminder_hours, locale, templates FROM mail_settings WHERE account_id = $1`,
    [accountId],
  );
  return toSettings(rows[0]);
}

export async function saveMailSettings(db: Db, accountId: string, settings: MailSettingsRow): Promise<MailSettingsRow> {
  const { rows } = await db.query<SettingsColumns>(
    `INSERT INTO mail_settings (account_id, sender_name, reply_to, online_enabled, pos_enabled, reminder_hours, locale, templates)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (account_id) DO UPDATE SET sender_name = $2, reply_to = $3, online_enabled = $4, pos_enabled = $5, reminder_hours = $6,
                                            locale = $7, templates = $8, updated_at = now()
     RETURNING sender_name, reply_to, online_enabled, pos_enabled, reminder_hours, locale, templates`,
    [
      accountId,
      settings.senderName,
      settings.replyTo,
      settings.onlineEnabled,
      settings.posEnabled,
      settings.reminderHours,
      settings.locale,
      JSON.stringify(settings.templates),
    ],
  );
  return toSettings(rows[0]);
}

/**
 * Moves the account's queued reminders to a new lead time (`hours` before each booking's start); 0 withdraws them,
 * and one whose new due time has passed is withdrawn too (its booking is closer than the lead: no reminder then).
 */
export async function retimeQueuedReminders(db: Db, accountId: string, hours: number): Promise<void> {
  await db.query(
    `UPDATE mail_messages m
        SET next_attempt_at = t.starts_at - make_interval(hours => $2),
            status = CASE WHEN $2 = 0 OR t.starts_at - make_interval(hours => $2) <= now() THEN 'cancelled' ELSE 'queued' END,
            last_error = CASE WHEN $2 = 0 OR t.starts_at - make_interval(hours => $2) <= now() THEN 'reminder lead changed' END
       FROM bookings b JOIN timeslots t ON t.id = b.timeslot_id
      WHERE m.account_id = $1 AND m.kind = 'reminder' AND m.status = 'queued' AND b.id = m.booking_id AND b.account_id = $1`,
    [accountId, hours],
  );
}

/** The account's partners by name, each with whether its customers get the account's e-mails. */
export async function listPartnerCustomerEmails(db: Db, accountId: string): Promise<{ id: string; name: string; customerEmails: boolean }[]> {
  const { rows } = await db.query<{ id: string; name: string; customerEmails: boolean }>(
    `SELECT id, name, customer_emails AS "customerEmails" FROM partners WHERE account_id = $1 ORDER BY lower(name), id`,
    [accountId],
  );
  return rows;
}

/** Switches whether a partner's customers get the account's e-mails: the partner's name and the switch before, or null when the partner is not the account's. */
export async function setPartnerCustomerEmails(
  db: Db,
  accountId: string,
  partnerId: string,
  enabled: boolean,
): Promise<{ name: string; before: boolean } | null> {
  const { rows } = await db.query<{ name: string; before: boolean }>(
    `UPDATE partners p SET customer_emails = $3
       FROM (SELECT id, customer_emails AS before FROM partners WHERE account_id = $1 AND id = $2 FOR UPDATE) o
      WHERE p.id = o.id
      RETURNING p.name, o.before`,
    [accountId, partnerId, enabled],
  );
  return rows[0] ?? null;
}

/** Whether a booking of this channel (and partner) would be e-mailed: the rule the trigger applies, asked before booking. */
export async function channelSendsMail(db: Db, accountId: string, channel: string, partnerId: string | null): Promise<boolean> {
  const { rows } = await db.query<{ mails: boolean }>(
    `SELECT CASE $2::text WHEN 'online' THEN coalesce((SELECT online_enabled FROM mail_settings WHERE account_id = $1), true)
                          WHEN 'pos' THEN coalesce((SELECT pos_enabled FROM mail_settings WHERE account_id = $1), true)
                          ELSE coalesce((SELECT customer_emails FROM partners WHERE account_id = $1 AND id = $3), false) END AS mails`,
    [accountId, channel, partnerId],
  );
  return rows[0]!.mails;
}

/** A message the worker is about to send, with what its rendering needs. */
export interface DueMail {
  id: number;
  accountId: string;
  kind: string;
  toAddress: string;
  data: Record<string, unknown>;
  /** Set when the message was rendered before (a retry, or a test send rendered at once). */
  rendered: { subject: string; text: string; html: string } | null;
  attempts: number;
  firstFailureAt: Date | null;
  eventId: string;
  accountName: string;
  timeZone: string;
  settings: MailSettingsRow;
  /** The slug of the account's booking page when it is on, else null (no manage link then). */
  bookingPageSlug: string | null;
  booking: {
    id: number;
    reference: string;
    status: string;
    channel: string;
    customer: { FirstName?: string; LastName?: string; Email?: string };
    activityName: string;
    participants: number;
    startsAt: Date;
  } | null;
}

interface DueColumns extends Partial<SettingsColumns> {
  id: number;
  account_id: string;
  kind: string;
  to_address: string;
  data: Record<string, unknown>;
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  attempts: number;
  first_failure_at: Date | null;
  event_id: string;
  account_name: string;
  time_zone: string;
  page_slug: string | null;
  has_settings: boolean;
  booking_id: number | null;
  reference: string | null;
  booking_status: string | null;
  channel: string | null;
  customer: NonNullable<DueMail['booking']>['customer'];
  activity_name: string | null;
  participants: number | null;
  starts_at: Date | null;
}

/**
 * Locks up to `limit` due messages, oldest due first, for the rest of the caller's transaction: the one query across
 * accounts, since the worker serves every tenant. SKIP LOCKED lets workers run side by side, each on rows the others
 * do not hold, so no message is sent by two at once.
 */
export async function claimDueMail(client: DbClient, limit: number): Promise<DueMail[]> {
  const { rows } = await client.query<DueColumns>(
    `SELECT m.id, m.account_id, m.kind, m.to_address, m.data, m.subject, m.text_body, m.html_body, m.attempts, m.first_failure_at, m.event_id,
            a.name AS account_name, a.time_zone, p.slug AS page_slug, s.account_id IS NOT NULL AS has_settings, s.sender_name, s.reply_to, s.online_enabled,
            s.pos_enabled, s.reminder_hours, s.locale, s.templates,
            b.id AS booking_id, b.reference, b.status AS booking_status, b.channel, b.customer, b.participants, act.name AS activity_name, t.starts_at
       FROM (SELECT id FROM mail_messages WHERE status = 'queued' AND next_attempt_at <= now()
              ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED) due
       JOIN mail_messages m ON m.id = due.id
       JOIN accounts a ON a.id = m.account_id
       LEFT JOIN booking_pages p ON p.account_id = m.account_id AND p.enabled
       LEFT JOIN mail_settings s ON s.account_id = m.account_id
       LEFT JOIN bookings b ON b.id = m.booking_id AND b.account_id = m.account_id
       LEFT JOIN timeslots t ON t.id = b.timeslot_id
       LEFT JOIN activities act ON act.id = b.activity_id AND act.account_id = b.account_id
      ORDER BY m.next_attempt_at`,
    [limit],
  );
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    kind: row.kind,
    toAddress: row.to_address,
    data: row.data,
    rendered: row.subject !== null ? { subject: row.subject, text: row.text_body ?? '', html: row.html_body ?? '' } : null,
    attempts: row.attempts,
    firstFailureAt: row.first_failure_at,
    eventId: row.event_id,
    accountName: row.account_name,
    timeZone: row.time_zone,
    bookingPageSlug: row.page_slug,
    settings: toSettings(row.has_settings ? (row as SettingsColumns) : undefined),
    booking:
      row.booking_id !== null
        ? {
            id: row.booking_id,
            reference: row.reference!,
            status: row.booking_status!,
            channel: row.channel!,
            customer: row.customer,
            activityName: row.activity_name!,
            participants: row.participants!,
            startsAt: row.starts_at!,
          }
        : null,
  }));
}

export type MailOutcome =
  | { kind: 'sent'; providerMessageId: string | null }
  | { kind: 'retry'; error: string; nextAttemptAt: Date }
  | { kind: 'failed'; error: string }
  | { kind: 'cancelled'; reason: string };

/**
 * Records each attempt's outcome (and the message as rendered) on rows the caller's transaction claimed: one statement
 * for the batch. A staff e-mail (an invitation, a password reset) sent has no platform event to publish: it is not one
 * of the account's workflow e-mails, so it is stamped published as it is recorded and never meters.
 */
export async function recordMailOutcomes(
  client: DbClient,
  outcomes: readonly { id: number; rendered: DueMail['rendered']; outcome: MailOutcome }[],
): Promise<void> {
  if (outcomes.length === 0) return;
  const column = <T>(pick: (o: (typeof outcomes)[number]) => T) => outcomes.map(pick);
  await client.query(
    `UPDATE mail_messages m
        SET status = o.status, subject = coalesce(o.subject, m.subject), text_body = coalesce(o.text_body, m.text_body),
            html_body = coalesce(o.html_body, m.html_body),
            attempts = m.attempts + CASE WHEN o.status = 'cancelled' THEN 0 ELSE 1 END,
            sent_at = CASE WHEN o.status = 'sent' THEN clock_timestamp() END, provider_message_id = o.provider_message_id,
            event_published_at = CASE WHEN o.status = 'sent' AND m.kind = ANY($9::text[]) THEN clock_timestamp() ELSE m.event_published_at END,
            last_error = o.last_error, next_attempt_at = coalesce(o.next_attempt_at, m.next_attempt_at),
            first_failure_at = CASE WHEN o.status IN ('queued', 'failed') THEN coalesce(m.first_failure_at, now()) ELSE m.first_failure_at END
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
            AS o (id, status, subject, text_body, html_body, provider_message_id, last_error, next_attempt_at)
      WHERE m.id = o.id`,
    [
      column((o) => o.id),
      column((o) => (o.outcome.kind === 'retry' ? 'queued' : o.outcome.kind)),
      column((o) => o.rendered?.subject ?? null),
      column((o) => o.rendered?.text ?? null),
      column((o) => o.rendered?.html ?? null),
      column((o) => (o.outcome.kind === 'sent' ? o.outcome.providerMessageId : null)),
      column((o) => (o.outcome.kind === 'sent' ? null : o.outcome.kind === 'cancelled' ? o.outcome.reason : o.outcome.error)),
      column((o) => (o.outcome.kind === 'retry' ? o.outcome.nextAttemptAt : null)),
      STAFF_MAIL_KINDS,
    ],
  );
}

export interface UnpublishedMailEvent {
  id: number;
  accountId: string;
  eventId: string;
  /** Unix seconds. */
  sentAt: number;
  /** A waitlist offer's message also gives its waitlist.notified event, under the EventID fixed with the offer. */
  waitlistNotified: { eventId: string; waitlistId: string; multiBookingId: string } | null;
}

/** Sent messages whose platform events the queue has not yet taken (a crash after the send's commit). */
export async function listUnpublishedMailEvents(db: Db, limit: number): Promise<UnpublishedMailEvent[]> {
  const { rows } = await db.query<{
    id: number;
    account_id: string;
    event_id: string;
    sent_at: number;
    notified_event_id: string | null;
    waitlist_id: string | null;
    multi_booking_id: string | null;
  }>(
    `SELECT id, account_id, event_id, floor(extract(epoch FROM sent_at))::bigint AS sent_at,
            CASE WHEN kind = 'waitlist-offer' THEN data->>'NotifiedEventID' END AS notified_event_id,
            data->>'WaitlistID' AS waitlist_id, data->>'MultiBookingID' AS multi_booking_id
       FROM mail_messages WHERE status = 'sent' AND event_published_at IS NULL ORDER BY sent_at LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    eventId: row.event_id,
    sentAt: Number(row.sent_at),
    waitlistNotified:
      row.notified_event_id && row.waitlist_id && row.multi_booking_id
        ? { eventId: row.notified_event_id, waitlistId: row.waitlist_id, multiBookingId: row.multi_booking_id }
        : null,
  }));
}

export async function markMailEventsPublished(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(`UPDATE mail_messages SET event_published_at = now() WHERE id = ANY($1::bigint[]) AND event_published_at IS NULL`, [ids]);
}

/** Whether any message is due or any sent one waits for its event: the worker's cheap look while idle. */
export async function hasMailWork(db: Db): Promise<boolean> {
  const { rows } = await db.query<{ any: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM mail_messages WHERE status = 'queued' AND next_attempt_at <= now())
         OR EXISTS (SELECT 1 FROM mail_messages WHERE status = 'sent' AND event_published_at IS NULL) AS any`,
  );
  return rows[0]!.any;
}

/** A test send: rendered now from the template being edited, sent by the worker like any other message. */
export async function insertTestMail(
  db: Db,
  accountId: string,
  message: { dedupeKey: string; to: string; subject: string; text: string; html: string },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO mail_messages (account_id, kind, dedupe_key, to_address, subject, text_body, html_body)
     VALUES ($1, 'test', $2, $3, $4, $5, $6) RETURNING id`,
    [accountId, message.dedupeKey, message.to, message.subject, message.text, message.html],
  );
  return rows[0]!.id;
}

export interface MailMessageRow {
  id: number;
  kind: string;
  to: string;
  subject: string | null;
  text: string | null;
  html: string | null;
  status: MailStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
  sentAt: Date | null;
  createdAt: Date;
  bookingReference: string | null;
}

/** The account's messages, newest first, `limit` at a time before the id `before`. */
export async function listMailMessages(db: Db, accountId: string, options: { limit: number; before: string | null }): Promise<MailMessageRow[]> {
  const { rows } = await db.query<{
    id: number;
    kind: string;
    to_address: string;
    subject: string | null;
    text_body: string | null;
    html_body: string | null;
    status: MailStatus;
    attempts: number;
    last_error: string | null;
    next_attempt_at: Date;
    sent_at: Date | null;
    created_at: Date;
    reference: string | null;
  }>(
    `SELECT m.id, m.kind, m.to_address, m.subject, m.text_body, m.html_body, m.status, m.attempts, m.last_error, m.next_attempt_at, m.sent_at,
            m.created_at, b.reference
       FROM mail_messages m LEFT JOIN bookings b ON b.id = m.booking_id AND b.account_id = m.account_id
      WHERE m.account_id = $1 AND ($2::bigint IS NULL OR m.id < $2)
      ORDER BY m.id DESC LIMIT $3`,
    [accountId, options.before, options.limit],
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    nextAttemptAt: row.next_attempt_at,
    sentAt: row.sent_at,
    createdAt: row.created_at,
    bookingReference: row.reference,
  }));
}
