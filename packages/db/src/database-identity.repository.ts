// Which database a process serves, as PostgreSQL tells it: the cluster's system identifier (chosen at initdb, kept by
// its physical replicas), the database and the schema. The queues are bound to it (packages/publisher queue-owner.ts):
// processes of two databases that share a Redis must never take each other's jobs.
import type { Db } from './pool.js';

export interface DatabaseIdentity {
  /** The same for every process on this cluster, database and schema; another for any other. */
  id: string;
  /** Where it is, for people: database, schema, server address and system identifier. */
  description: string;
}

interface IdentityRow {
  system: string | null;
  database: string;
  schema: string | null;
  address: string | null;
  port: number | null;
}

const WHERE = `current_database() AS database, current_schema() AS schema, host(inet_server_addr()) AS address, inet_server_port() AS port`;

export async function readDatabaseIdentity(db: Db): Promise<DatabaseIdentity> {
  const row = await db
    .query<IdentityRow>(`SELECT (SELECT system_identifier::text FROM pg_control_system()) AS system, ${WHERE}`)
    .then(({ rows }) => rows[0]!)
    // pg_control_system() may be revoked from ordinary roles (a hosted PostgreSQL): the database and schema still tell
    // this database apart from the others of its server.
    .catch(async (error: { code?: string }) => {
      if (error.code !== '42501') throw error;
      return (await db.query<IdentityRow>(`SELECT NULL AS system, ${WHERE}`)).rows[0]!;
    });
  const schema = row.schema ?? '';
  const server = row.address ? `${row.address.includes(':') ? `[${row.address}]` : row.address}:${row.port}` : 'a local socket';
  return {
    id: [row.system ?? 'unknown-system', row.database, schema].join('/'),
    description: `database "${row.database}", schema "${schema}" on ${server}, system ${row.system ?? 'unknown'}`,
  };
}
