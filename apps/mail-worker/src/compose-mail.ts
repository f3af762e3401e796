// A claimed message as the customer will read it: the account's template for its kind (or the built-in one) filled
// with the booking, its times in the account's zone and locale, and the manage link of the online booking page.
import type { DueMail } from '@backbone/db';
import {
  BOOKING_TOKEN_MARK,
  bookingPagePath,
  DEFAULT_MAIL_TEMPLATES,
  formatMailTime,
  isStaffMailKind,
  partyInWords,
  renderMail,
  renderStaffMail,
  STAFF_LINK_TOKEN_MARK,
  TEMPLATE_KINDS,
  type MailTemplate,
  type MailValues,
  type RenderedMail,
  type TemplateKind,
} from '@backbone/domain';

/** The mark of a booking's token in a rendered message (BOOKING_TOKEN_MARK); substituteManageToken puts a fresh token in its place. */
export const MANAGE_TOKEN_MARK = BOOKING_TOKEN_MARK;

/** The channels whose customers booked through the operator itself, the ones the manage link serves. */
const MANAGED_CHANNELS: readonly string[] = ['online', 'pos'];

/**
 * The manage link of the online booking page ({base}/book/{Slug}/manage/{token}, the page's own route) with the
 * token's mark, or null: none without a base URL, without an enabled page, or for a partner's booking (the partner
 * looks after its customers).
 */
export function manageLinkFor(mail: Pick<DueMail, 'booking' | 'bookingPageSlug'>, publicBaseUrl: string): string | null {
  if (!publicBaseUrl || !mail.bookingPageSlug || !mail.booking || !MANAGED_CHANNELS.includes(mail.booking.channel)) return null;
  return `${publicBaseUrl.replace(/\/+$/, '')}${bookingPagePath(mail.bookingPageSlug)}/manage/${MANAGE_TOKEN_MARK}`;
}

/** The message to send: the stored one with its token mark (when it has one) replaced by the token. */
export function substituteManageToken(rendered: RenderedMail, token: string): RenderedMail {
  const put = (part: string) => part.replaceAll(MANAGE_TOKEN_MARK, token);
  return { subject: put(rendered.subject), text: put(rendered.text), html: put(rendered.html) };
}

/** A staff e-mail's link with its token in place of the mark (STAFF_LINK_TOKEN_MARK). */
export function substituteStaffLinkToken(rendered: RenderedMail, token: string): RenderedMail {
  const put = (part: string) => part.replaceAll(STAFF_LINK_TOKEN_MARK, token);
  return { subject: put(rendered.subject), text: put(rendered.text), html: put(rendered.html) };
}

export const carriesStaffLink = (rendered: RenderedMail): boolean =>
  [rendered.subject, rendered.text, rendered.html].some((part) => part.includes(STAFF_LINK_TOKEN_MARK));

export const carriesManageLink = (rendered: RenderedMail): boolean =>
  [rendered.subject, rendered.text, rendered.html].some((part) => part.includes(MANAGE_TOKEN_MARK));

const isTemplateKind = (kind: string): kind is TemplateKind => (TEMPLATE_KINDS as readonly string[]).includes(kind);

export function templateFor(mail: Pick<DueMail, 'kind' | 'settings'>): MailTemplate | null {
  if (!isTemplateKind(mail.kind)) return null;
  return mail.settings.templates[mail.kind] ?? DEFAULT_MAIL_TEMPLATES[mail.kind];
}

/** A local date (YYYY-MM-DD) as the locale writes it, for the "it was" of a change e-mail. */
function localDate(date: string, locale: string): string {
  const instant = new Date(`${date}T12:00:00Z`);
  return Number.isNaN(instant.getTime()) ? date : formatMailTime(instant, 'UTC', locale).date;
}

/** `publicBaseUrl`: where customers reach the service (PUBLIC_BASE_URL), the start of the links in a message. */
export function mailValues(mail: DueMail, publicBaseUrl: string): MailValues {
  const booking = mail.booking;
  if (!booking) return { accountName: mail.accountName };
  const { date, time } = formatMailTime(booking.startsAt, mail.timeZone, mail.settings.locale);
  // booking.updated's snapshot of the timeslot and party before the change (schema in the job catalog).
  const previous: { Date?: string; Time?: string; Participants?: number } | null =
    typeof mail.data.Previous === 'object' && mail.data.Previous !== null ? mail.data.Previous : null;
  const manageLink = manageLinkFor(mail, publicBaseUrl);
  // A waitlist offer's claim link and the end of its hold (written with the offer: see the waitlist use cases).
  const claimLink = publicBaseUrl && typeof mail.data.ClaimPath === 'string' ? `${publicBaseUrl.replace(/\/+$/, '')}${mail.data.ClaimPath}` : null;
  const offerExpires =
    typeof mail.data.OfferExpiresAt === 'string' ? formatMailTime(new Date(mail.data.OfferExpiresAt), mail.timeZone, mail.settings.locale) : null;
  const reason = typeof mail.data.Reason === 'string' ? mail.data.Reason : null;
  return {
    accountName: mail.settings.senderName ?? mail.accountName,
    reference: booking.reference,
    firstName: booking.customer.FirstName ?? '',
    lastName: booking.customer.LastName ?? '',
    activityName: booking.activityName,
    date,
    time,
    participants: String(booking.participants),
    party: partyInWords(booking.participants),
    ...(previous?.Date ? { previousDate: localDate(previous.Date, mail.settings.locale) } : {}),
    ...(previous?.Time ? { previousTime: previous.Time } : {}),
    ...(previous?.Participants ? { previousParticipants: String(previous.Participants), previousParty: partyInWords(previous.Participants) } : {}),
    ...(reason ? { reason } : {}),
    ...(manageLink ? { manageLink } : {}),
    ...(claimLink ? { claimLink } : {}),
    ...(offerExpires ? { offerExpiresDate: offerExpires.date, offerExpiresTime: offerExpires.time } : {}),
  };
}

/** The message's subject and bodies as stored (a link's token only marked): as rendered before, or rendered now. */
export function composeMail(mail: DueMail, publicBaseUrl: string): RenderedMail {
  if (mail.rendered) return mail.rendered;
  // An invitation or a password reset: the platform's own words, whatever the account's templates.
  if (isStaffMailKind(mail.kind))
    return renderStaffMail({ kind: mail.kind, accountName: mail.accountName, publicBaseUrl, timeZone: mail.timeZone, data: mail.data });
  const template = templateFor(mail);
  if (!template) throw new Error(`no template for a ${mail.kind} message`);
  return renderMail(template, mailValues(mail, publicBaseUrl));
}
