// The console's search ignores accents as it ignores case (issue 24): "Joao Pereira" finds João Pereira, "muller"
// Müller, "Zoe" Zoë, and the accented words still find them. The search text is folded by the unaccent extension
// (its rules also turn ß into ss and Ø into O, which no decomposition does); its two-argument form names the
// dictionary, so the fold does not depend on search_path, yet it is STABLE (a dictionary could change), which an
// index refuses. `unaccented` is the IMMUTABLE wrapper an index accepts: the dictionary's rules are fixed files, and
// changing them would call for a REINDEX anyway.
//
// The list sorted by slot time (Sort=starts_at) walks the account's timeslots in starting order:
// timeslots_account_starts_idx.
//
// Both indexes are built CONCURRENTLY, so outside the migrations' one transaction (a JavaScript migration: only
// these can say noTransaction): a plain CREATE INDEX holds every write to the table while it builds, and a trigram
// index over a million bookings takes a minute or more. A build that fails leaves an invalid index behind, so each
// is dropped first and a new run of the migration starts over. A schema with no bookings and no timeslots yet (a new
// install; every test's schema) builds them plainly: there are no writes to let through, and CONCURRENTLY would wait
// for every transaction of the whole database holding an older snapshot, which in a database shared by schemas held
// one schema's migration (and so every other's, behind the migration lock) for as long as another's test kept one open.

/** @param {import('node-pg-migrate').MigrationBuilder} pgm */
export async function up(pgm) {
  pgm.noTransaction();
  /** @type {Array<{ used: boolean }>} */
  const rows = await pgm.db.select('SELECT EXISTS (SELECT 1 FROM bookings) OR EXISTS (SELECT 1 FROM timeslots) AS used');
  const concurrently = rows[0]?.used ? 'CONCURRENTLY' : '';
  // In public with its dictionary, like pg_trgm: schemas that share a database (tests) share one copy.
  pgm.sql('CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public');
  pgm.sql(`CREATE OR REPLACE FUNCTION unaccented(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
             AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$`);
  pgm.sql(`DROP INDEX ${concurrently} IF EXISTS bookings_unaccented_search_idx`);
  pgm.sql(`CREATE INDEX ${concurrently} bookings_unaccented_search_idx ON bookings USING gin (unaccented(
             reference || ' ' || coalesce(payment_reference, '') || ' ' || coalesce(customer->>'Email', '') || ' ' ||
             coalesce(customer->>'FirstName', '') || ' ' || coalesce(customer->>'LastName', '')
           ) public.gin_trgm_ops)`);
  pgm.sql(`DROP INDEX ${concurrently} IF EXISTS bookings_search_idx`);
  pgm.sql(`DROP INDEX ${concurrently} IF EXISTS timeslots_account_starts_idx`);
  pgm.sql(`CREATE INDEX ${concurrently} timeslots_account_starts_idx ON timeslots (account_id, starts_at)`);
}

/** @param {import('node-pg-migrate').MigrationBuilder} pgm */
export function down(pgm) {
  pgm.noTransaction();
  pgm.sql('DROP INDEX CONCURRENTLY IF EXISTS timeslots_account_starts_idx');
  pgm.sql('DROP INDEX CONCURRENTLY IF EXISTS bookings_search_idx');
  pgm.sql(`CREATE INDEX CONCURRENTLY bookings_search_idx ON bookings USING gin ((
             reference || ' ' || coalesce(payment_reference, '') || ' ' || coalesce(customer->>'Email', '') || ' ' ||
             coalesce(customer->>'FirstName', '') || ' ' || coalesce(customer->>'LastName', '')
           ) public.gin_trgm_ops)`);
  pgm.sql('DROP INDEX CONCURRENTLY IF EXISTS bookings_unaccented_search_idx');
  pgm.sql('DROP FUNCTION IF EXISTS unaccented(text)');
}
