/**
 * `column = param` for a uuid tenant id, written so that no index can serve it: for a row found by its own unique key
 * (a booking's id or reference), the tenant is a check on that row, never the way to it. With statistics that do not
 * know an account yet (a new operator, or one that grew since the last ANALYZE), PostgreSQL estimated one row for
 * `account_id = $1` and chose an index led by account_id over the unique key, then read every booking of the account
 * for each lookup: 100 to 300 ms each on an account of 165,000 bookings, until the plan cache turned generic. The
 * parameter goes through ::uuid first, so its text is the canonical one the column's text is.
 */
export const tenantIs = (column: string, param: string): string => `${column}::text = ${param}::uuid::text`;
