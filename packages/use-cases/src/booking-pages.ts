// The owner's settings of the account's booking page (the console, the admin CLI's set-booking-page): on or off, its
// slug (unique across accounts, none of the page's own paths), the origins allowed to embed it, its note, terms and
// locale. Each change is audited (booking_page.updated, with the members that changed) in its transaction.
import type { BookingPageChanges, OperatorBookingPage } from '@backbone/contracts';
import { findBookingPageSettings, recordAudit, saveBookingPage, withTransaction, type Pool } from '@backbone/db';
import { auditChanges, DomainError, isReservedBookingPageSlug, notFound, toOperatorBookingPage, ValidationError, type AuditActor } from '@backbone/domain';

export async function updateOperatorBookingPage(
  deps: { pool: Pool },
  request: { accountId: string; changes: BookingPageChanges; actor: AuditActor },
): Promise<OperatorBookingPage> {
  const { changes } = request;
  if (changes.Slug !== undefined && isReservedBookingPageSlug(changes.Slug)) {
    throw new ValidationError([{ field: 'Slug', message: `Slug ${changes.Slug} is a path of the booking page's own files: choose another.` }]);
  }
  // One transaction: a refused change (its statement failed) leaves not even the row of defaults the save starts with.
  return withTransaction(deps.pool, async (client) => {
    const before = await findBookingPageSettings(client, request.accountId);
    if (!before) throw notFound('Account');
    const saved = await saveBookingPage(client, request.accountId, {
      enabled: changes.Enabled,
      slug: changes.Slug,
      embedOrigins: changes.EmbedOrigins,
      note: changes.Note,
      terms: changes.Terms,
      locale: changes.Locale,
      holdMinutes: changes.HoldMinutes,
      waitlistOfferMinutes: changes.WaitlistOfferMinutes,
    });
    if (saved === 'slug-taken') throw new DomainError('slug-taken', `The slug ${changes.Slug ?? ''} belongs to another booking page: choose another.`);
    if (saved === 'no-slug') throw new ValidationError([{ field: 'Slug', message: 'Slug is required to turn the booking page on.' }]);
    if (saved === 'no-account') throw notFound('Account');
    const after = toOperatorBookingPage(saved);
    // Path follows from Slug: the change of the slug says it.
    const changed = auditChanges(toOperatorBookingPage(before), after, ['Path']);
    if (Object.keys(changed).length > 0) {
      await recordAudit(client, request.accountId, {
        actor: request.actor,
        action: 'booking_page.updated',
        subject: { type: 'booking_page', id: request.accountId, label: after.Path ?? 'Booking page' },
        changes: changed,
      });
    }
    return after;
  });
}
