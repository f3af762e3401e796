// Idempotency keys: the first request with a key claims it ('running'); its answer is stored with its work,
// in the same transaction, so a replay returns exactly what the first caller got. A key is the caller's own: the row
// is found by account, caller and key, and holds the request it came with (method and concrete path, body hash).
import type { Db } from './pool.js';

/** A claim older than this is taken to belong to a crashed request and may be taken over. */
export const IDEMPOTENCY_ABANDONED_AFTER_SECONDS = 60;
export const IDEMPOTENCY_RETENTION_HOURS = 24;

export type IdempotencyClaim = { outcome: 'claimed' } | { outcome: 'replay'; body: string } | { outcome: 'mismatch' } | { outcome: 'in-progress' };

export interface IdempotencyScope {
  accountId: string;
  /** Who sent the key: 'partner:<id>', 'key:<id>' or 'user:<id>'. Another caller's key is another key. */
  caller: string;
  /** The request it came with: method and the concrete path as sent ('POST /api/v2/ota/partner/booking/7KQ4X9MB/cancel'). */
  operation: string;
  key: string;
  requestHash: string;
}

/** Claims the key for the request whose id is `claimId` (a UUID it drew), unless another request holds or answered it. */
export async function claimIdempotencyKey(db: Db, scope: IdempotencyScope, claimId: string): Promise<IdempotencyClaim> {
  // Insert a fresh claim, or take over one that expired or was abandoned; otherwise read what is there.
  const { rows } = await db.query<{ claimed: boolean }>(
    `INSERT INTO idempotency_keys AS k (account_id, caller, key, operation, request_hash, state, claim_id)
     VALUES ($1, $2, $3, $4, $5, 'running', $8)
     ON CONFLICT (account_id, caller, key) DO UPDATE
        SET operation = EXCLUDED.operation, request_hash = EXCLUDED.request_hash, state = 'running',
            response_status = NULL, response_body = NULL, locked_at = now(), created_at = now(), claim_id = EXCLUDED.claim_id
      WHERE k.created_at < now() - make_interval(hours => $6)
         OR (k.state = 'running' AND k.locked_at < now() - make_interval(secs => $7))
     RETURNING true AS claimed`,
    [scope.accountId, scope.caller, scope.key, scope.operation, scope.requestHash, IDEMPOTENCY_RETENTION_HOURS, IDEMPOTENCY_ABANDONED_AFTER_SECONDS, claimId],
  );
  if (rows[0]) return { outcome: 'claimed' };
  const existing = await db.query<{ operation: string; request_hash: string; state: string; response_body: string | null }>(
    `SELECT operation, request_hash, state, response_body FROM idempotency_keys
      WHERE account_id = $1 AND caller = $2 AND key = $3`,
    [scope.accountId, scope.caller, scope.key],
  );
  const row = existing.rows[0];
  // Released between our insert and our read: the caller may simply try again.
  if (!row) return claimIdempotencyKey(db, scope, claimId);
  // The same key on another resource (another booking's cancel) or with another body is another request.
  if (row.operation !== scope.operation || row.request_hash !== scope.requestHash) return { outcome: 'mismatch' };
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
      WHERE account_id = $1 AND caller = $2 AND key = $3`,
    [scope.accountId, scope.caller, scope.key, body],
  );
}

/**
 * Frees the claim of request `claimId`, which failed without an answer worth replaying (a 5xx), so a retry can run.
 * Only that claim: when it was never made, was completed, or was abandoned and taken over, this deletes nothing.
 */
export async function releaseIdempotencyKey(db: Db, scope: IdempotencyScope, claimId: string): Promise<void> {
  await db.query(`DELETE FROM idempotency_keys WHERE account_id = $1 AND caller = $2 AND key = $3 AND state = 'running' AND claim_id = $4`, [
    scope.accountId,
    scope.caller,
    scope.key,
    claimId,
  ]);
}

export async function deleteExpiredIdempotencyKeys(db: Db): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)`, [IDEMPOTENCY_RETENTION_HOURS]);
  return rowCount ?? 0;
}
