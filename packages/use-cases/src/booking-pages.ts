// The owner's settings of the account's booking page (the console, the admin CLI's set-booking-page): on or off, its
// slug (unique across accounts), the origins allowed to embed it, its note, terms and locale.
import type { BookingPageChanges, OperatorBookingPage } from '@backbone/contracts';
import { saveBookingPage, type Pool } from '@backbone/db';
import { DomainError, notFound, toOperatorBookingPage, ValidationError } from '@backbone/domain';

export async function updateOperatorBookingPage(
  deps: { pool: Pool },
  request: { accountId: string; changes: BookingPageChanges },
): Promise<OperatorBookingPage> {
  const { changes } = request;
  const saved = await saveBookingPage(deps.pool, request.accountId, {
    enabled: changes.Enabled,
    slug: changes.Slug,
    embedOrigins: changes.EmbedOrigins,
    note: changes.Note,
    terms: changes.Terms,
    locale: changes.Locale,
  });
  if (saved === 'slug-taken') throw new DomainError('slug-taken', `The slug ${changes.Slug ?? ''} belongs to another booking page: choose another.`);
  if (saved === 'no-slug') throw new ValidationError([{ field: 'Slug', message: 'Slug is required to turn the booking page on.' }]);
  if (saved === 'no-account') throw notFound('Account');
  return toOperatorBookingPage(saved);
}
