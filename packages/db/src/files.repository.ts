// Uploaded files' rows and each account's quota of bytes. An upload is a pending row first, its bytes counted against
// the quota in the same statement (one conditional update of the account's counter, as a timeslot's capacity is);
// the row becomes 'stored' once the bytes are durable, and only then can a booking reference it. The sweeper claims
// unreferenced files past their expiry (and pending rows a crash left behind), deletes their bytes, then the rows,
// giving their bytes back to the quota.
import type { AnswerFile, AnswerFileOwner, FileContentType } from '@backbone/domain';
import { withTransaction, type Db, type Pool } from './pool.js';

/** A pending upload older than this was cut off (a crash, a lost connection): no request lives this long. */
export const ABANDONED_UPLOAD_AFTER_SECONDS = 3600;

/**
 * Who uploads a file, which decides who may answer with it: a partner (its own bookings), a customer for one hold of
 * the booking page (that booking alone), or the account's operator at the desk (a console user, or an admin key:
 * userId null), whose files answer the account's bookings when the operator sends the answer.
 */
export type FileUploader = { partnerId: string } | { holdBookingId: number } | { operator: { userId: string | null } };

export interface NewFileUpload {
  id: string;
  accountId: string;
  uploader: FileUploader;
  apiKeyId: string | null;
  name: string;
  contentType: FileContentType;
  size: number;
  quotaBytes: number;
  /** Bytes of the uploader's unfinished uploads (a partner's, a hold's, the desk's), this one included, it may have at once. */
  inProgressLimitBytes: number;
  ttlHours: number;
}

export type FileUploadReservation = { expiresAt: Date } | { refused: 'quota' } | { refused: 'uploads-in-progress'; inProgressBytes: number };

/**
 * Records a pending upload and counts its bytes against the account's quota and the partner's unfinished uploads;
 * refused (and nothing written) when they do not fit. Answers when the file expires unless referenced.
 */
export async function reserveFileUpload(pool: Pool, upload: NewFileUpload): Promise<FileUploadReservation> {
  return withTransaction(pool, async (tx) => {
    // One reservation of the partner's at a time, so that the sum of its unfinished uploads read next stays true until
    // this one commits (the account's quota needs no lock: it is one conditional update of one row).
    await tx.query({
      name: 'files-reserve-partner-lock',
      text: `SELECT pg_advisory_xact_lock(hashtextextended('files-in-progress:' || $1::text || ':' || $2::text, 0))`,
      values: [upload.accountId, uploaderKey(upload)],
    });
    const { rows: pending } = await tx.query<{ bytes: string }>(inProgressQuery(upload.accountId, upload.uploader));
    const inProgressBytes = Number(pending[0]?.bytes ?? 0);
    if (inProgressBytes + upload.size > upload.inProgressLimitBytes) return { refused: 'uploads-in-progress', inProgressBytes };
    const reserved = await reserveWithinQuota(tx, upload);
    return reserved ?? { refused: 'quota' };
  });
}

const uploaderKey = ({ uploader }: NewFileUpload): string =>
  'partnerId' in uploader ? uploader.partnerId : 'holdBookingId' in uploader ? `hold:${uploader.holdBookingId}` : 'operator';

/** The sum of the uploader's pending files; the desk's staff (and admin keys) share one sum per account. */
function inProgressQuery(accountId: string, uploader: FileUploader): { name: string; text: string; values: unknown[] } {
  if ('partnerId' in uploader) {
    return {
      name: 'files-in-progress-of-partner',
      text: `SELECT coalesce(sum(size), 0) AS bytes FROM files WHERE account_id = $1 AND partner_id = $2 AND status = 'pending'`,
      values: [accountId, uploader.partnerId],
    };
  }
  if ('holdBookingId' in uploader) {
    return {
      name: 'files-in-progress-of-hold',
      text: `SELECT coalesce(sum(size), 0) AS bytes FROM files WHERE account_id = $1 AND hold_booking_id = $2 AND status = 'pending'`,
      values: [accountId, uploader.holdBookingId],
    };
  }
  return {
    name: 'files-in-progress-of-operator',
    text: `SELECT coalesce(sum(size), 0) AS bytes FROM files WHERE account_id = $1 AND operator_upload AND status = 'pending'`,
    values: [accountId],
  };
}

async function reserveWithinQuota(db: Db, upload: NewFileUpload): Promise<{ expiresAt: Date } | null> {
  const { rows } = await db.query<{ expires_at: Date }>({
    name: 'files-reserve',
    text: `WITH quota AS (
             INSERT INTO file_quota_usage AS q (account_id, bytes)
             SELECT $2::uuid, $7::bigint WHERE $7::bigint <= $8::bigint
             ON CONFLICT (account_id) DO UPDATE SET bytes = q.bytes + excluded.bytes WHERE q.bytes + excluded.bytes <= $8::bigint
             RETURNING account_id
           )
           INSERT INTO files (id, account_id, partner_id, api_key_id, name, content_type, size, expires_at, hold_booking_id, operator_upload, uploaded_by_user_id)
           SELECT $1, $2, $3, $4, $5, $6, $7::bigint, now() + make_interval(hours => $9::int), $10, $11, $12 FROM quota
           RETURNING expires_at`,
    values: [
      upload.id,
      upload.accountId,
      'partnerId' in upload.uploader ? upload.uploader.partnerId : null,
      upload.apiKeyId,
      upload.name,
      upload.contentType,
      upload.size,
      upload.quotaBytes,
      upload.ttlHours,
      'holdBookingId' in upload.uploader ? upload.uploader.holdBookingId : null,
      'operator' in upload.uploader,
      'operator' in upload.uploader ? upload.uploader.operator.userId : null,
    ],
  });
  return rows[0] ? { expiresAt: rows[0].expires_at } : null;
}

/** The upload's bytes are durable: the file may be referenced from now on. */
export async function markFileStored(db: Db, accountId: string, id: string, sha256: string): Promise<void> {
  await db.query({
    name: 'files-stored',
    text: `UPDATE files SET status = 'stored', sha256 = $3, stored_at = now() WHERE id = $2 AND account_id = $1 AND status = 'pending'`,
    values: [accountId, id, sha256],
  });
}

/** An upload that failed: its row goes, and its bytes go back to the quota. */
export async function discardFileUpload(db: Db, accountId: string, id: string): Promise<void> {
  await db.query({
    name: 'files-discard',
    text: `WITH gone AS (
             DELETE FROM files WHERE id = $2 AND account_id = $1 AND status = 'pending' AND booking_id IS NULL RETURNING size
           )
           UPDATE file_quota_usage SET bytes = bytes - gone.size FROM gone WHERE account_id = $1`,
    values: [accountId, id],
  });
}

/**
 * The stored files among `ids` that `owner`'s answers may reference (AnswerFileOwner says whose): referenced by a
 * booking already, or not yet expired. Another owner's or account's file, a pending or expired one, is simply not
 * there. `lock` takes their row locks (inside a transaction), so that two bookings cannot both take one file.
 */
export async function findAnswerFiles(db: Db, owner: AnswerFileOwner, ids: readonly string[], options: { lock: boolean }): Promise<Map<string, AnswerFile>> {
  if (ids.length === 0 || (owner.partnerId === null && owner.id === undefined && !owner.operator)) return new Map();
  const { rows } = await db.query<{ id: string; name: string; content_type: FileContentType; size: number; booking_id: number | null }>({
    name: options.lock ? 'files-for-answers-locked' : 'files-for-answers',
    text: `SELECT id, name, content_type, size, booking_id FROM files
            WHERE id = ANY($3::uuid[]) AND account_id = $1
              AND (partner_id = $2 OR hold_booking_id = $4 OR booking_id = $4 OR (operator_upload AND $5::boolean))
              AND status = 'stored'
              AND (booking_id IS NOT NULL OR expires_at > now())
            ORDER BY id
            ${options.lock ? 'FOR UPDATE' : ''}`,
    values: [owner.accountId, owner.partnerId, ids, owner.id ?? null, owner.operator],
  });
  return new Map(
    rows.map((r) => [
      r.id,
      { id: r.id, name: r.name, contentType: r.content_type, size: Number(r.size), bookingId: r.booking_id === null ? null : Number(r.booking_id) },
    ]),
  );
}

/**
 * Gives the files to the booking (its row locks held by the caller since findAnswerFiles): from now on the booking
 * keeps them. A file another booking took meanwhile would make the count fall short: the caller's check then failed.
 */
export async function attachFilesToBooking(
  db: Db,
  accountId: string,
  booking: { id: number } | { reference: string },
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const { rowCount } = await db.query({
    name: 'files-attach',
    text: `WITH booking AS (
             SELECT id FROM bookings WHERE account_id = $1 AND (id = $2 OR reference = $3)
           )
           UPDATE files f SET booking_id = booking.id FROM booking
            WHERE f.id = ANY($4::uuid[]) AND f.account_id = $1 AND (f.booking_id IS NULL OR f.booking_id = booking.id)`,
    values: [accountId, 'id' in booking ? booking.id : null, 'reference' in booking ? booking.reference : null, ids],
  });
  return rowCount ?? 0;
}

export interface StoredFileRow {
  id: string;
  accountId: string;
  name: string;
  contentType: FileContentType;
  size: number;
  sha256: string;
}

/** A stored file of the account (the operator's download): any uploader's, referenced or not yet expired. */
export async function findAccountFile(db: Db, accountId: string, id: string): Promise<StoredFileRow | null> {
  const { rows } = await db.query<{ id: string; name: string; content_type: FileContentType; size: number; sha256: string }>({
    name: 'files-find-for-account',
    text: `SELECT id, name, content_type, size, sha256 FROM files
            WHERE id = $2 AND account_id = $1 AND status = 'stored' AND (booking_id IS NOT NULL OR expires_at > now())`,
    values: [accountId, id],
  });
  const row = rows[0];
  return row ? { id: row.id, accountId, name: row.name, contentType: row.content_type, size: Number(row.size), sha256: row.sha256 } : null;
}

/**
 * Claims up to `limit` files to delete: unreferenced ones past their expiry, and pending uploads a crash abandoned.
 * They turn 'deleting' (no booking can take them from now on: a booking that locked one first has referenced it, and
 * the re-check under the lock then passes it over); rows claimed by an earlier pass that did not finish come again.
 */
export async function claimUnreferencedFiles(db: Db, limit: number): Promise<Array<{ id: string; accountId: string }>> {
  const { rows } = await db.query<{ id: string; account_id: string }>({
    name: 'files-claim-unreferenced',
    text: `UPDATE files SET status = 'deleting'
            WHERE id IN (
              SELECT id FROM files
               WHERE booking_id IS NULL
                 AND (expires_at <= now() OR status = 'deleting'
                      OR (status = 'pending' AND created_at <= now() - make_interval(secs => $2)))
               ORDER BY expires_at LIMIT $1
               FOR UPDATE SKIP LOCKED)
              AND booking_id IS NULL
            RETURNING id, account_id`,
    values: [limit, ABANDONED_UPLOAD_AFTER_SECONDS],
  });
  return rows.map((r) => ({ id: r.id, accountId: r.account_id }));
}

/** Deletes claimed files' rows (their bytes are gone) and gives their bytes back to their accounts' quotas. */
export async function deleteClaimedFiles(db: Db, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const { rows } = await db.query<{ deleted: number }>({
    name: 'files-delete-claimed',
    text: `WITH gone AS (
             DELETE FROM files WHERE id = ANY($1::uuid[]) AND status = 'deleting' AND booking_id IS NULL RETURNING account_id, size
           ), per_account AS (
             SELECT account_id, sum(size) AS bytes, count(*) AS n FROM gone GROUP BY account_id
           ), released AS (
             UPDATE file_quota_usage q SET bytes = q.bytes - per_account.bytes FROM per_account WHERE q.account_id = per_account.account_id
           )
           SELECT coalesce(sum(n), 0)::int AS deleted FROM per_account`,
    values: [ids],
  });
  return rows[0]?.deleted ?? 0;
}
