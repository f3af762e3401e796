// The audit log of owners' actions: one row per action, written by the use case inside the transaction of the change
// it records, and read newest first in keyset pages. The actor's label (a user's e-mail, an admin key's name) is read
// in the same statement, so it is the one of that moment.
import type { AuditAction, AuditEntry } from '@backbone/contracts';
import type { AuditActor, AuditChanges } from '@backbone/domain';
import type { Db } from './pool.js';

export type AuditSubjectType = AuditEntry['Subject']['Type'];

export interface AuditRecord {
  actor: AuditActor;
  action: AuditAction;
  subject: { type: AuditSubjectType; id: string; label: string };
  changes: AuditChanges;
}

/** The actor_kind and actor_id columns of an actor: a signed-in user is the user, even when an admin key came along. */
function actorColumns(actor: AuditActor): [AuditEntry['Actor']['Kind'], string | null] {
  if (actor.kind !== 'operator') return [actor.kind, null];
  if (actor.userId !== null) return ['user', actor.userId];
  if (actor.apiKeyId !== null) return ['key', actor.apiKeyId];
  throw new Error('An operator actor names a user or a key.');
}

/** Writes one entry; call it on the client of the transaction that makes the change. */
export async function recordAudit(db: Db, accountId: string, entry: AuditRecord): Promise<void> {
  await db.query({
    name: 'audit-record',
    text: `INSERT INTO audit_entries (account_id, actor_kind, actor_id, actor_label, action, subject_type, subject_id, subject_label, changes)
           VALUES ($1, $2, $3, CASE $2
                                 WHEN 'user' THEN (SELECT email FROM operator_users WHERE account_id = $1 AND id = $3)
                                 WHEN 'key' THEN (SELECT name FROM api_keys WHERE account_id = $1 AND id = $3)
                               END,
                   $4, $5, $6, $7, $8)`,
    values: [accountId, ...actorColumns(entry.actor), entry.action, entry.subject.type, entry.subject.id, entry.subject.label, JSON.stringify(entry.changes)],
  });
}

export interface AuditFilters {
  action?: AuditAction;
  /** Local dates of `timeZone`, both counted. */
  from?: string;
  to?: string;
  timeZone: string;
}

interface Row {
  id: string;
  at: Date;
  actor_kind: AuditEntry['Actor']['Kind'];
  actor_id: string | null;
  actor_label: string | null;
  action: AuditAction;
  subject_type: AuditSubjectType;
  subject_id: string;
  subject_label: string;
  changes: AuditChanges;
}

/** One page, newest first: the entries below the id `below` (null: from the newest), and the id to continue below. */
export async function listAuditEntries(
  db: Db,
  accountId: string,
  filters: AuditFilters,
  page: { limit: number; below: string | null },
): Promise<{ entries: AuditEntry[]; next: string | null }> {
  const { rows } = await db.query<Row>({
    name: 'audit-page',
    text: `SELECT id, at, actor_kind, actor_id, actor_label, action, subject_type, subject_id, subject_label, changes
             FROM audit_entries
            WHERE account_id = $1
              AND ($2::bigint IS NULL OR id < $2)
              AND ($3::text IS NULL OR action = $3)
              AND ($4::date IS NULL OR at >= $4::date::timestamp AT TIME ZONE $6)
              AND ($5::date IS NULL OR at < ($5::date + 1)::timestamp AT TIME ZONE $6)
            ORDER BY id DESC
            LIMIT $7`,
    values: [accountId, page.below, filters.action ?? null, filters.from ?? null, filters.to ?? null, filters.timeZone, page.limit + 1],
  });
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  return { entries: shown.map(toEntry), next: more ? String(shown[shown.length - 1]!.id) : null };
}

function toEntry(r: Row): AuditEntry {
  return {
    ID: String(r.id),
    At: r.at.toISOString(),
    Action: r.action,
    Actor: { Kind: r.actor_kind, ID: r.actor_id, Label: r.actor_label },
    Subject: { Type: r.subject_type, ID: r.subject_id, Label: r.subject_label },
    Changes: r.changes,
  };
}
