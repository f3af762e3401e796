// The owner's customer e-mails: settings with their defaults, templates refused at save time with the line that does
// not render, no header injection through names or subjects, the live preview, the test send through the outbox, the
// E-mails list, the audit of every change, and the tenant wall around all of it.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@backbone/db';
import { book, createOperator, createSlot, dayFromNow, signedIn, useOperatorApi, type Operator, type SessionClient } from './support.js';

const { db, server } = useOperatorApi();

let operator: Operator;
let other: Operator;
let owner: SessionClient;
let otherOwner: SessionClient;

beforeAll(async () => {
  operator = await createOperator(db.pool);
  other = await createOperator(db.pool);
  owner = await signedIn(server.url, operator.owner.email);
  otherOwner = await signedIn(server.url, other.owner.email);
});

const template = { Subject: 'Hi {{firstName}}', Text: 'Booking {{reference}}\non {{date}}', Html: '<p>{{firstName}}</p>' };

describe('mail settings', () => {
  it('answers the defaults, with the built-in templates and the placeholders', async () => {
    const answer = await owner.send('GET', '/api/v2/operator/mail/settings');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      SenderName: null,
      ReplyTo: null,
      OnlineEnabled: true,
      PosEnabled: true,
      ReminderHours: 24,
      Locale: 'en-GB',
      Templates: {},
    });
    expect(Object.keys(answer.body.DefaultTemplates)).toEqual(['confirmation', 'change', 'cancellation', 'reminder', 'waitlist-offer']);
    expect(answer.body.Placeholders).toContain('manageLink');
    expect(answer.body.Placeholders).toEqual(expect.arrayContaining(['claimLink', 'offerExpiresDate', 'offerExpiresTime']));
  });

  it('refuses a template that does not render, naming its part and line, and changes nothing', async () => {
    const broken = { ...template, Text: 'Hello {{firstName}},\nyour {{refrence}} is booked' };
    const answer = await owner.send('PATCH', '/api/v2/operator/mail/settings', { Templates: { confirmation: broken } });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([
      { field: 'Templates.confirmation.text', message: expect.stringContaining('text, line 2: unknown placeholder {{refrence}}') },
    ]);
    const unclosed = await owner.send('PATCH', '/api/v2/operator/mail/settings', {
      Templates: { reminder: { ...template, Html: '<p>\n{{#manageLink}}<a href="{{manageLink}}">x</a>' } },
    });
    expect(unclosed.status).toBe(422);
    expect(unclosed.body.errors[0].message).toContain('line 2: {{#manageLink}} is never closed');
    expect((await owner.send('GET', '/api/v2/operator/mail/settings')).body.Templates).toEqual({});
  });

  it('refuses line breaks in the sender name and the subject (no header injection), and a locale it cannot write', async () => {
    for (const body of [
      { SenderName: 'Sea Kayak\r\nBcc: victim@example.com' },
      { Templates: { confirmation: { ...template, Subject: 'Hi\nBcc: victim@example.com' } } },
      { ReplyTo: 'desk@example.com\r\nBcc: victim@example.com' },
      { Locale: 'xx-NOT-A-LOCALE-AT-ALL' },
    ]) {
      const answer = await owner.send('PATCH', '/api/v2/operator/mail/settings', body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
    }
    expect((await owner.send('GET', '/api/v2/operator/mail/settings')).body.SenderName).toBeNull();
  });

  it('saves the settings and a template, which the preview then renders with sample values', async () => {
    const saved = await owner.send('PATCH', '/api/v2/operator/mail/settings', {
      SenderName: 'Sea Kayak Lisboa',
      ReplyTo: 'desk@seakayak.example',
      ReminderHours: 48,
      Templates: { confirmation: template },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ SenderName: 'Sea Kayak Lisboa', ReminderHours: 48, Templates: { confirmation: template } });
    const preview = await owner.send('POST', '/api/v2/operator/mail/preview', { Kind: 'confirmation' });
    expect(preview.body).toEqual({ Subject: 'Hi Ana', Text: 'Booking BK-SAMPLE1\non Saturday 6 June 2026', Html: '<p>Ana</p>' });
    const live = await owner.send('POST', '/api/v2/operator/mail/preview', {
      Kind: 'cancellation',
      Template: { Subject: 'Cancelled', Text: '{{#reason}}Why: {{reason}}{{/reason}}', Html: '<b>{{accountName}}</b>' },
    });
    expect(live.body).toEqual({ Subject: 'Cancelled', Text: 'Why: Storm warning', Html: '<b>Sea Kayak Lisboa</b>' });
    // The other account still has the defaults.
    expect((await otherOwner.send('GET', '/api/v2/operator/mail/settings')).body.SenderName).toBeNull();
  });

  it("queues a test send, listed on the account's E-mails page and on no other", async () => {
    const sent = await owner.send('POST', '/api/v2/operator/mail/test', { Kind: 'confirmation', To: 'owner@seakayak.example' });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ Kind: 'test', To: 'owner@seakayak.example', Subject: '[Test] Hi Ana', Status: 'queued', Attempts: 0 });
    expect((await owner.send('POST', '/api/v2/operator/mail/test', { Kind: 'confirmation', To: 'not an address' })).status).toBe(422);
    const date = dayFromNow(4);
    await createSlot(db.pool, operator, date, '10:00');
    await book(db.pool, operator, { date, time: '10:00' }, { channel: 'pos', email: 'walk-in@example.com' });
    const list = await owner.send('GET', '/api/v2/operator/mail/messages?Limit=2');
    expect(list.status).toBe(200);
    expect(list.body.Messages.map((m: { Kind: string; To: string }) => [m.Kind, m.To])).toEqual([
      ['reminder', 'walk-in@example.com'],
      ['confirmation', 'walk-in@example.com'],
    ]);
    const rest = await owner.send('GET', `/api/v2/operator/mail/messages?Cursor=${list.body.Next}`);
    expect(rest.body.Messages.map((m: { MessageID: string }) => m.MessageID)).toEqual([sent.body.MessageID]);
    expect(rest.body.Next).toBeNull();
    expect((await otherOwner.send('GET', '/api/v2/operator/mail/messages')).body.Messages).toEqual([]);
  });

  it("switches a partner's customers on, and never another account's partner", async () => {
    const key = await createApiKey(db.pool, operator.account.id, { name: 'Reseller', scopes: ['ota'] });
    const path = `/api/v2/operator/partners/${key.partnerId}/customer-emails`;
    expect((await owner.send('PATCH', path, { Enabled: true })).status).toBe(204);
    expect((await otherOwner.send('PATCH', path, { Enabled: false })).status).toBe(404);
    const { rows } = await db.pool.query<{ customer_emails: boolean }>(`SELECT customer_emails FROM partners WHERE id = $1`, [key.partnerId]);
    expect(rows[0]!.customer_emails).toBe(true);
  });

  it("audits each change of the settings and of a partner's switch, with what changed, and nothing for a refused or empty one", async () => {
    const auditOf = async (accountId: string) =>
      (
        await db.pool.query<{ actor_label: string; action: string; subject_type: string; subject_label: string; changes: Record<string, unknown> }>(
          `SELECT actor_label, action, subject_type, subject_label, changes FROM audit_entries
            WHERE account_id = $1 AND action IN ('mail_settings.updated', 'partner.customer_emails_changed') ORDER BY id`,
          [accountId],
        )
      ).rows;
    const before = (await auditOf(operator.account.id)).length;
    const current = (await owner.send('GET', '/api/v2/operator/mail/settings')).body;
    const reminder = { Subject: 'See you soon, {{firstName}}', Text: 'Booking {{reference}} on {{date}}', Html: '<p>{{reference}}</p>' };
    expect((await owner.send('PATCH', '/api/v2/operator/mail/settings', { ReminderHours: 12, Templates: { ...current.Templates, reminder } })).status).toBe(
      200,
    );
    // Refused (a template that does not render) and unchanged: no entry.
    expect(
      (await owner.send('PATCH', '/api/v2/operator/mail/settings', { ReminderHours: 6, Templates: { reminder: { ...reminder, Text: '{{nope}}' } } })).status,
    ).toBe(422);
    expect((await owner.send('PATCH', '/api/v2/operator/mail/settings', { ReminderHours: 12 })).status).toBe(200);

    const key = await createApiKey(db.pool, operator.account.id, { name: 'Audited Reseller', scopes: ['ota'] });
    const path = `/api/v2/operator/partners/${key.partnerId}/customer-emails`;
    expect((await owner.send('PATCH', path, { Enabled: true })).status).toBe(204);
    expect((await owner.send('PATCH', path, { Enabled: true })).status).toBe(204);
    expect((await otherOwner.send('PATCH', path, { Enabled: false })).status).toBe(404);

    const entries = (await auditOf(operator.account.id)).slice(before);
    expect(entries).toEqual([
      {
        actor_label: operator.owner.email,
        action: 'mail_settings.updated',
        subject_type: 'mail_settings',
        subject_label: 'E-mail settings',
        changes: { ReminderHours: { From: current.ReminderHours, To: 12 }, 'Templates.reminder': { From: null, To: reminder } },
      },
      {
        actor_label: operator.owner.email,
        action: 'partner.customer_emails_changed',
        subject_type: 'partner',
        subject_label: 'Audited Reseller',
        changes: { CustomerEmails: { From: false, To: true } },
      },
    ]);
    expect(await auditOf(other.account.id)).toEqual([]);
    // The owner's audit page lists them.
    const page = await owner.send('GET', '/api/v2/operator/audit?Action=partner.customer_emails_changed&Limit=1');
    expect(page.status).toBe(200);
    expect(page.body.Entries[0]).toMatchObject({ Action: 'partner.customer_emails_changed', Subject: { Type: 'partner', Label: 'Audited Reseller' } });
  });
});
