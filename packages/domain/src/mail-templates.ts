// Customer e-mail templates: a small mustache-like language the owner edits in the console. `{{name}}` inserts a value
// (HTML-escaped in the HTML part), `{{#name}}...{{/name}}` keeps its content only when the value is there (the manage
// link, a cancellation's reason). Only the names below exist, so a typo is refused when the template is saved, with
// its line, instead of reaching a customer as a blank.
import type { FieldError } from './errors.js';
import { ValidationError } from './errors.js';

export const MAIL_KINDS = ['confirmation', 'change', 'cancellation', 'reminder', 'waitlist-offer', 'test', 'invitation', 'password-reset'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
/** The kinds an owner writes templates for (a test send uses the template being edited). */
export const TEMPLATE_KINDS = ['confirmation', 'change', 'cancellation', 'reminder', 'waitlist-offer'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

export const MAIL_PLACEHOLDERS = [
  'accountName',
  'reference',
  'firstName',
  'lastName',
  'activityName',
  'date',
  'time',
  'participants',
  'party',
  'previousDate',
  'previousTime',
  'previousParticipants',
  'previousParty',
  'reason',
  'manageLink',
  'claimLink',
  'offerExpiresDate',
  'offerExpiresTime',
] as const;
export type MailPlaceholder = (typeof MAIL_PLACEHOLDERS)[number];
export type MailValues = Partial<Record<MailPlaceholder, string>>;

export interface MailTemplate {
  subject: string;
  text: string;
  html: string;
}
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

type Token = { kind: 'text'; value: string } | { kind: 'value' | 'open' | 'close'; name: MailPlaceholder; line: number };

const TAG = /\{\{\s*([#/]?)\s*([^}]*?)\s*\}\}/g;
const isPlaceholder = (name: string): name is MailPlaceholder => (MAIL_PLACEHOLDERS as readonly string[]).includes(name);
const lineAt = (source: string, index: number) => source.slice(0, index).split('\n').length;

/** Splits a template into text and tags, or names the first mistake with its line. */
function tokenize(source: string, part: string): Token[] | FieldError {
  const tokens: Token[] = [];
  const open: { name: MailPlaceholder; line: number }[] = [];
  let last = 0;
  for (const match of source.matchAll(TAG)) {
    const line = lineAt(source, match.index);
    const [, sigil, name = ''] = match;
    if (!isPlaceholder(name))
      return { field: part, message: `${part}, line ${line}: unknown placeholder {{${sigil}${name}}} (known: ${MAIL_PLACEHOLDERS.join(', ')}).` };
    tokens.push({ kind: 'text', value: source.slice(last, match.index) });
    last = match.index + match[0].length;
    if (sigil === '#') open.push({ name, line });
    if (sigil === '/') {
      const top = open.pop();
      if (top?.name !== name) return { field: part, message: `${part}, line ${line}: {{/${name}}} closes no open {{#${name}}}.` };
    }
    tokens.push({ kind: sigil === '#' ? 'open' : sigil === '/' ? 'close' : 'value', name, line });
  }
  const rest = source.slice(last);
  const stray = rest.indexOf('{{');
  if (stray >= 0) return { field: part, message: `${part}, line ${lineAt(source, last + stray)}: "{{" without its closing "}}".` };
  const unclosed = open.pop();
  if (unclosed) return { field: part, message: `${part}, line ${unclosed.line}: {{#${unclosed.name}}} is never closed.` };
  tokens.push({ kind: 'text', value: rest });
  return tokens;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function renderTokens(tokens: Token[], values: MailValues, escape: (value: string) => string): string {
  let out = '';
  let skipping = 0;
  for (const token of tokens) {
    if (token.kind === 'open') {
      if (skipping > 0 || !values[token.name]) skipping++;
    } else if (token.kind === 'close') {
      if (skipping > 0) skipping--;
    } else if (skipping === 0) out += token.kind === 'text' ? token.value : escape(values[token.name] ?? '');
  }
  return out;
}

/** The mistakes of a template, each naming its part and line; empty when it renders. */
export function templateErrors(template: MailTemplate, prefix = ''): FieldError[] {
  const errors: FieldError[] = [];
  for (const part of ['subject', 'text', 'html'] as const) {
    const tokens = tokenize(template[part], `${prefix}${part}`);
    if (!Array.isArray(tokens)) errors.push(tokens);
  }
  if (/[\r\n]/.test(template.subject)) errors.push({ field: `${prefix}subject`, message: `${prefix}subject must be one line (no line breaks).` });
  return errors;
}

/** Renders a template the save already checked; a template that does not render throws a ValidationError. */
export function renderMail(template: MailTemplate, values: MailValues): RenderedMail {
  const errors = templateErrors(template);
  if (errors.length > 0) throw new ValidationError(errors);
  const parts = (['subject', 'text', 'html'] as const).map((part) => tokenize(template[part], part) as Token[]);
  // A value is never allowed to break the subject into a second header line.
  const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ');
  return {
    subject: oneLine(renderTokens(parts[0]!, values, oneLine)),
    text: renderTokens(parts[1]!, values, (v) => v),
    html: renderTokens(parts[2]!, values, escapeHtml),
  };
}

const signOff = '\n\n{{accountName}}';
const details = 'Booking {{reference}}: {{activityName}} on {{date}} at {{time}}, {{party}}.';
const manageText = '{{#manageLink}}\nSee or change your booking: {{manageLink}}{{/manageLink}}';
const manageHtml = '{{#manageLink}}<p><a href="{{manageLink}}">See or change your booking</a></p>{{/manageLink}}';
// A cancelled booking can no longer be changed: its link only shows it.
const cancelledManageText = '{{#manageLink}}\nSee your booking: {{manageLink}}{{/manageLink}}';
const cancelledManageHtml = '{{#manageLink}}<p><a href="{{manageLink}}">See your booking</a></p>{{/manageLink}}';
const html = (lines: string[]) => `<p>${lines.join('</p>\n<p>')}</p>\n${manageHtml}\n<p>{{accountName}}</p>`;

/** The built-in templates, used for every kind the owner has not rewritten. */
export const DEFAULT_MAIL_TEMPLATES: Record<TemplateKind, MailTemplate> = {
  confirmation: {
    subject: 'Your booking {{reference}} is confirmed: {{activityName}} on {{date}}',
    text: `Hello {{firstName}},\n\nyour booking is confirmed.\n${details}\n${manageText}${signOff}`,
    html: html(['Hello {{firstName}},', 'your booking is confirmed.', details]),
  },
  change: {
    subject: 'Your booking {{reference}} has changed: {{activityName}} on {{date}}',
    text: `Hello {{firstName}},\n\nyour booking has changed.\n${details}\n(It was {{previousDate}} at {{previousTime}}, {{previousParty}}.)\n${manageText}${signOff}`,
    html: html(['Hello {{firstName}},', 'your booking has changed.', details, '(It was {{previousDate}} at {{previousTime}}, {{previousParty}}.)']),
  },
  cancellation: {
    subject: 'Your booking {{reference}} is cancelled',
    text: `Hello {{firstName}},\n\nyour booking {{reference}} ({{activityName}} on {{date}} at {{time}}) is cancelled.{{#reason}}\nReason: {{reason}}{{/reason}}\n${cancelledManageText}${signOff}`,
    html: `<p>Hello {{firstName}},</p>\n<p>your booking {{reference}} ({{activityName}} on {{date}} at {{time}}) is cancelled.</p>\n{{#reason}}<p>Reason: {{reason}}</p>{{/reason}}\n${cancelledManageHtml}\n<p>{{accountName}}</p>`,
  },
  reminder: {
    subject: 'Reminder: {{activityName}} on {{date}} at {{time}}',
    text: `Hello {{firstName}},\n\na reminder of your booking.\n${details}\n${manageText}${signOff}`,
    html: html(['Hello {{firstName}},', 'a reminder of your booking.', details]),
  },
  'waitlist-offer': {
    subject: 'Places for you: {{activityName}} on {{date}} at {{time}}',
    text:
      'Hello {{firstName}},\n\nplaces have come free on the timeslot you waited for: {{activityName}} on {{date}} at {{time}}, {{party}}.\n' +
      'We hold them for you until {{offerExpiresTime}} on {{offerExpiresDate}}; after that they go to the next person waiting.\n' +
      `{{#claimLink}}\nBook them here: {{claimLink}}\n{{/claimLink}}${signOff}`,
    html:
      '<p>Hello {{firstName}},</p>\n<p>places have come free on the timeslot you waited for: {{activityName}} on {{date}} at {{time}}, {{party}}.</p>\n' +
      '<p>We hold them for you until {{offerExpiresTime}} on {{offerExpiresDate}}; after that they go to the next person waiting.</p>\n' +
      '{{#claimLink}}<p><a href="{{claimLink}}">Book them here</a></p>{{/claimLink}}\n<p>{{accountName}}</p>',
  },
};

/**
 * What stands for a booking's token in a message as it is written and stored (a manage link, a waitlist offer's claim
 * link): the mail worker puts a token of its own in its place for each message it sends (only the token's SHA-256 is
 * kept), so the clear token is in the message and nowhere in the database.
 */
export const BOOKING_TOKEN_MARK = '{manage-token}';

/** A party in words, for the sentences of the built-in templates: "1 participant", "2 participants". */
export const partyInWords = (participants: number): string => `${participants} participant${participants === 1 ? '' : 's'}`;

/** Sample values for previews and test sends. */
export const SAMPLE_MAIL_VALUES: MailValues = {
  accountName: 'Your company',
  reference: 'BK-SAMPLE1',
  firstName: 'Ana',
  lastName: 'Silva',
  activityName: 'Kayak tour',
  date: 'Saturday 6 June 2026',
  time: '10:00',
  participants: '2',
  party: '2 participants',
  previousDate: 'Friday 5 June 2026',
  previousTime: '09:00',
  previousParticipants: '3',
  previousParty: '3 participants',
  reason: 'Storm warning',
  claimLink: 'https://example.com/book/your-page/claim/sample',
  offerExpiresDate: 'Thursday 4 June 2026',
  offerExpiresTime: '18:30',
};

/** A start instant as the customer reads it: date and time in the account's zone and locale. */
export function formatMailTime(instant: Date, timeZone: string, locale: string): { date: string; time: string } {
  return {
    date: new Intl.DateTimeFormat(locale, { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(instant),
    time: new Intl.DateTimeFormat(locale, { timeZone, hour: '2-digit', minute: '2-digit' }).format(instant),
  };
}

/** An e-mail address a mail server takes: one line, one @, no spaces or angle brackets (which would forge a header). */
export function isDeliverableAddress(address: string): boolean {
  return address.length <= 254 && /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/.test(address);
}
