// The e-mails the platform sends to an account's own people, not to its customers: an invitation to the console and a
// password reset. Their wording is the platform's (no owner template), they go whatever the account's customer e-mail
// settings say, and they are not the account's workflow e-mails: no workflow-email-sent entry meters them.
// Their link carries a token the mail worker mints as it sends (STAFF_LINK_TOKEN_MARK stands in the stored message).
import { formatMailTime, type RenderedMail } from './mail-templates.js';

export const STAFF_MAIL_KINDS = ['invitation', 'password-reset'] as const;
export type StaffMailKind = (typeof STAFF_MAIL_KINDS)[number];
export const isStaffMailKind = (kind: string): kind is StaffMailKind => (STAFF_MAIL_KINDS as readonly string[]).includes(kind);

/** The mark of a link's token in a stored staff e-mail; the mail worker puts a token of its own in its place. */
export const STAFF_LINK_TOKEN_MARK = '{link-token}';

/** How long an invitation's link works, from its (last) sending; a reset's. */
export const INVITATION_LIFETIME_MS = 48 * 3_600_000;
export const PASSWORD_RESET_LIFETIME_MS = 3_600_000;

/**
 * The console's pages the links open. The token is in the fragment: a browser never sends it to a server, so it is in
 * no access log and no Referer.
 */
export const invitationPath = `/console/invitation#${STAFF_LINK_TOKEN_MARK}`;
export const passwordResetPath = `/console/password-reset#${STAFF_LINK_TOKEN_MARK}`;

export interface StaffMailInput {
  kind: StaffMailKind;
  accountName: string;
  /** The service's public base URL (PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  timeZone: string;
  /** The message's snapshot: for an invitation Name, Role, InvitedBy, ExpiresAt; for a reset ExpiresAt. */
  data: Record<string, unknown>;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ');
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The message with its link's token marked; throws without a base URL (a link to nowhere would be worse than none). */
export function renderStaffMail(input: StaffMailInput): RenderedMail {
  if (!input.publicBaseUrl) throw new Error('PUBLIC_BASE_URL is not set, so the link cannot be written');
  const base = input.publicBaseUrl.replace(/\/+$/, '');
  const expires = formatMailTime(new Date(text(input.data.ExpiresAt)), input.timeZone, 'en-GB');
  const until = `${expires.date} at ${expires.time} (${input.timeZone})`;
  const account = oneLine(input.accountName);
  if (input.kind === 'invitation') {
    const link = `${base}${invitationPath}`;
    const name = text(input.data.Name);
    const role = text(input.data.Role) === 'owner' ? 'an owner' : 'a member of staff';
    const by = text(input.data.InvitedBy);
    const lines = [
      `Hello ${name},`,
      '',
      `${by} invited you to the operator console of ${account} as ${role}.`,
      'Open this link to choose your password and sign in:',
      link,
      '',
      `The link works once, until ${until}.`,
      'If you did not expect this invitation, ignore this e-mail.',
    ];
    return {
      subject: `You are invited to the console of ${account}`,
      text: lines.join('\n'),
      html:
        `<p>Hello ${escapeHtml(name)},</p><p>${escapeHtml(by)} invited you to the operator console of ${escapeHtml(account)} as ${role}.</p>` +
        `<p><a href="${escapeHtml(link)}">Choose your password and sign in</a></p>` +
        `<p>The link works once, until ${escapeHtml(until)}. If you did not expect this invitation, ignore this e-mail.</p>`,
    };
  }
  const link = `${base}${passwordResetPath}`;
  const lines = [
    'Hello,',
    '',
    `Someone asked to reset the password of your console account at ${account}.`,
    'Open this link to choose a new password:',
    link,
    '',
    `The link works once, until ${until}. Choosing a new password signs you out everywhere else.`,
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ];
  return {
    subject: `Reset your password for ${account}`,
    text: lines.join('\n'),
    html:
      `<p>Hello,</p><p>Someone asked to reset the password of your console account at ${escapeHtml(account)}.</p>` +
      `<p><a href="${escapeHtml(link)}">Choose a new password</a></p>` +
      `<p>The link works once, until ${escapeHtml(until)}. Choosing a new password signs you out everywhere else.</p>` +
      '<p>If you did not ask for this, ignore this e-mail: your password stays as it is.</p>',
  };
}
