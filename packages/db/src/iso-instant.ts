// An instant as Date.prototype.toISOString writes it (UTC, milliseconds truncated as node-postgres's Date truncates
// them), written by PostgreSQL: for rows served as text by the thousand (the sync feed, the CSV export), printing it
// there costs less than parsing a Date in the service to print it again.
export function isoInstantSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
