// Each account's online booking page: its settings (the console's and the admin CLI's), and the page a slug opens
// (the shop API's way in, the one read that finds an account by something other than its id: the slug is public).
import type { Db } from './pool.js';

export interface BookingPage {
  accountId: string;
  accountName: string;
  /** The account's zone. */
  timeZone: string;
  enabled: boolean;
  slug: string | null;
  embedOrigins: string[];
  note: string;
  terms: string;
  locale: string;
  holdMinutes: number;
  waitlistOfferMinutes: number;
}

export interface BookingPageChanges {
  enabled?: boolean | undefined;
  slug?: string | undefined;
  embedOrigins?: readonly string[] | undefined;
  note?: string | undefined;
  terms?: string | undefined;
  locale?: string | undefined;
  holdMinutes?: number | undefined;
  waitlistOfferMinutes?: number | undefined;
}

interface PageRow {
  account_id: string;
  account_name: string;
  time_zone: string;
  enabled: boolean | null;
  slug: string | null;
  embed_origins: string[] | null;
  note: string | null;
  terms: string | null;
  locale: string | null;
  hold_minutes: number | null;
  waitlist_offer_minutes: number | null;
}

// An account without a row has the table's defaults, and its page is off.
const toPage = (r: PageRow): BookingPage => ({
  accountId: r.account_id,
  accountName: r.account_name,
  timeZone: r.time_zone,
  enabled: r.enabled ?? false,
  slug: r.slug,
  embedOrigins: r.embed_origins ?? [],
  note: r.note ?? '',
  terms: r.terms ?? '',
  locale: r.locale ?? 'en-GB',
  holdMinutes: r.hold_minutes ?? 10,
  waitlistOfferMinutes: r.waitlist_offer_minutes ?? 30,
});

const PAGE_COLUMNS = `a.id AS account_id, a.name AS account_name, a.time_zone, p.enabled, p.slug, p.embed_origins, p.note, p.terms, p.locale, p.hold_minutes, p.waitlist_offer_minutes`;

/** The enabled page with this slug, whoever's it is; null for an unknown slug or a page that is off. */
export async function findEnabledBookingPage(db: Db, slug: string): Promise<BookingPage | null> {
  const { rows } = await db.query<PageRow>({
    name: 'booking-page-by-slug',
    text: `SELECT ${PAGE_COLUMNS} FROM booking_pages p JOIN accounts a ON a.id = p.account_id WHERE p.slug = $1 AND p.enabled`,
    values: [slug],
  });
  return rows[0] ? toPage(rows[0]) : null;
}

/** The account's page settings (the defaults, off, when it never set them); null for no such account. */
export async function findBookingPageSettings(db: Db, accountId: string): Promise<BookingPage | null> {
  const { rows } = await db.query<PageRow>({
    name: 'booking-page-settings',
    text: `SELECT ${PAGE_COLUMNS} FROM accounts a LEFT JOIN booking_pages p ON p.account_id = a.id WHERE a.id = $1`,
    values: [accountId],
  });
  return rows[0] ? toPage(rows[0]) : null;
}

/**
 * Writes the members given (the others stay); 'slug-taken' when another account has the slug, 'no-slug' when the page
 * would be enabled without one, 'no-account' for no such account. The row is created on the first write. A refusal is
 * a failed statement: inside a transaction, the caller must roll it back (the use case does, by throwing).
 */
export async function saveBookingPage(db: Db, accountId: string, changes: BookingPageChanges): Promise<BookingPage | 'slug-taken' | 'no-slug' | 'no-account'> {
  try {
    // A row with the defaults (off, no slug: the same as no row) first, then the changes: an INSERT ... ON CONFLICT
    // would check its VALUES row against the table's CHECKs even when it only updates.
    await db.query({
      name: 'booking-page-create',
      text: `INSERT INTO booking_pages (account_id) VALUES ($1) ON CONFLICT (account_id) DO NOTHING`,
      values: [accountId],
    });
    const { rows } = await db.query<{ account_id: string }>({
      name: 'booking-page-save',
      text: `UPDATE booking_pages AS p SET
               enabled = coalesce($2, p.enabled), slug = coalesce($3, p.slug), embed_origins = coalesce($4, p.embed_origins),
               note = coalesce($5, p.note), terms = coalesce($6, p.terms), locale = coalesce($7, p.locale),
               hold_minutes = coalesce($8, p.hold_minutes), waitlist_offer_minutes = coalesce($9, p.waitlist_offer_minutes), updated_at = now()
             WHERE account_id = $1
             RETURNING account_id`,
      values: [
        accountId,
        changes.enabled ?? null,
        changes.slug ?? null,
        changes.embedOrigins ? [...changes.embedOrigins] : null,
        changes.note ?? null,
        changes.terms ?? null,
        changes.locale ?? null,
        changes.holdMinutes ?? null,
        changes.waitlistOfferMinutes ?? null,
      ],
    });
    if (!rows[0]) throw new Error(`no account ${accountId}`);
  } catch (error) {
    const code = (error as { code?: string; constraint?: string }).code;
    const constraint = (error as { constraint?: string }).constraint;
    if (code === '23505' && constraint === 'booking_pages_slug_key') return 'slug-taken';
    if (code === '23514' && constraint === 'booking_pages_check') return 'no-slug';
    if (code === '23503') return 'no-account';
    throw error;
  }
  return (await findBookingPageSettings(db, accountId))!;
}
