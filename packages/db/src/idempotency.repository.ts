// Idempotency keys: the first request with a key claims it ('running'); its answer is stored with its work,
// in the same transaction, so a replay returns exactly what the first caller got.
import type { Db } from './pool.js';

/** A claim older than this is taken to belong to a crashed request and may be taken over. */
const ABANDONED_AFTER_SECONDS = 60;
export const IDEMPOTENCY_RETENTION_HOURS = 24;

export type IdempotencyClaim =
  | { outcome: 'claimed' }
  | { outcome: 'replay'; body: string }
  | { outcome: 'mismatch' }
  | { outcome: 'in-progress' };

export interface IdempotencyScope {
  accountId: string;
  operation: string;
  key: string;
  requestHash: string;
}

export async function claimIdempotencyKey(db: Db, scope: IdempotencyScope): Promise<IdempotencyClaim> {
  // Insert a fresh claim, or take over one that expired or was abandoned; otherwise read what is there.
  const { rows } = await db.query<{ claimed: boolean }>(
    `INSERT INTO idempotency_keys AS k (account_id, operation, key, request_hash, state)
     VALUES ($1, $2, $3, $4, 'running')
     ON CONFLICT (account_id, operation, key) DO UPDATE
        SET request_hash = EXCLUDED.request_hash, state = 'running', response_status = NULL, response_body = NULL,
            locked_at = now(), created_at = now()
      WHERE k.created_at < now() - make_interval(hours => $5)
         OR (k.state = 'running' AND k.locked_at < now() - make_interval(secs => $6))
     RETURNING true AS claimed`,
    [scope.accountId, scope.operation, scope.key, scope.requestHash, IDEMPOTENCY_RETENTION_HOURS, ABANDONED_AFTER_SECONDS],
  );
  if (rows[0]) return { outcome: 'claimed' };
  const existing = await db.query<{ request_hash: string; state: string; response_body: string | null }>(
    `SELECT request_hash, state, response_body FROM idempotency_keys
      WHERE account_id = $1 AND operation = $2 AND key = $3`,
    [scope.accountId, scope.operation, scope.key],
  );
  const row = existing.rows[0];
  // Released between our insert and our read: the caller may simply try again.
  if (!row) return claimIdempotencyKey(db, scope);
  if (row.request_hash !== scope.requestHash) return { outcome: 'mismatch' };
  if (row.state === 'running') return { outcome: 'in-progress' };
  return { outcome: 'replay', body: row.response_body! };
}

/**
 * Stores the answer (the use case's result as JSON; the caller derives its status from it, so none is stored); call
 * it inside the transaction that does the work.
 */
export async function completeIdempotencyKey(db: Db, scope: IdempotencyScope, body: string): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET state = 'done', response_status = NULL, response_body = $4
      WHERE account_id = $1 AND operation = $2 AND key = $3`,
    [scope.accountId, scope.operation, scope.key, body],
  );
}

/** Frees a claim whose request failed without an answer worth replaying (a 5xx), so a retry can run. */
export async function releaseIdempotencyKey(db: Db, scope: IdempotencyScope): Promise<void> {
  await db.query(
    `DELETE FROM idempotency_keys WHERE account_id = $1 AND operation = $2 AND key = $3 AND state = 'running'`,
    [scope.accountId, scope.operation, scope.key],
  );
}

export async function deleteExpiredIdempotencyKeys(db: Db): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)`,
    [IDEMPOTENCY_RETENTION_HOURS],
  );
  return rowCount ?? 0;
}
