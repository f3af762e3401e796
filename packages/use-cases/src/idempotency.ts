// The one idempotency module. A request that carries a key is answered once: a retry with the same key and the same
// request gets the first answer again, the same key with another request is a conflict, and a retry racing the
// first is told to wait. A key is scoped by who sent it and what it acts on: the caller (the partner of an ota key,
// else the API key or the signed-in user) owns its keys, and a stored answer is given only to the same method, the
// same concrete path and the same body; another caller's identical key is another key. Two ways to keep the answer,
// one set of verdicts:
// - runIdempotently claims the key in its own table and stores the answer in the transaction that does the work;
// - writes that carry their own dedupe key (usage entries, where the claim would cost a round trip) ask judgeRepeat.
import { hash, randomUUID } from 'node:crypto';
import {
  awaitDurable,
  claimIdempotencyKey,
  completeIdempotencyKey,
  IDEMPOTENCY_ABANDONED_AFTER_SECONDS,
  isDatabaseUnavailable,
  OutcomeUnknownError,
  throwOutcomeUnknownIfLost,
  releaseIdempotencyKey,
  withTransaction,
  type Db,
  type IdempotencyClaim,
  type IdempotencyScope,
  type Pool,
} from '@backbone/db';
import { IdempotencyError } from './errors.js';

/** What the caller sent: who it is, its key, the request (method and concrete path) and a hash of the body. */
export interface IdempotencyRequest {
  /** 'partner:<id>', 'key:<id>' or 'user:<id>' (http's idempotencyCallerOf). */
  caller: string;
  /** Method and the concrete path as sent, e.g. 'POST /api/v2/ota/partner/booking/7KQ4X9MB/cancel'. */
  operation: string;
  key: string;
  requestHash: string;
}

/** A use case's answer, and whether it is the stored answer of an earlier request with the same key. */
export interface Replayable<T> {
  value: T;
  replayed: boolean;
}

/**
 * Waits until a change that committed without flushing (COMMIT_WITHOUT_FLUSH) is on disk, before anyone is told of it.
 * The change has committed when the wait begins: whatever stops the wait (a lost connection, or no connection at all),
 * it was made and may or may not reach the disk, so the outcome is unknown.
 */
export async function awaitCommittedDurable(pool: Pool): Promise<void> {
  try {
    await awaitDurable(pool);
  } catch (error) {
    throw isDatabaseUnavailable(error) ? new OutcomeUnknownError(error) : error;
  }
}

/** How often a claim is released again while the database does not answer. */
const RELEASE_RETRY_MS = 1000;

/**
 * Runs `work` once per key. Without a key, `work` runs on the pool (a single statement needs no transaction). With
 * one, the key is claimed, `work` runs in a transaction and its answer (JSON) commits with it; when `work` throws,
 * the claim is released, so only answers that did their work are kept and a failed request can be retried.
 *
 * `durable`: the work may commit without flush (COMMIT_WITHOUT_FLUSH), so the answer waits until it is on disk
 * (awaitDurable), a replayed answer too, since its original may have committed a moment ago. A server that dies
 * before the flush loses that commit, stored answer included, but not the claim, made before: so a failed wait
 * releases the claim like a failed work does. When the commit was kept after all, the claim is done and stays.
 */
export async function runIdempotently<T>(
  pool: Pool,
  accountId: string,
  request: IdempotencyRequest | null,
  work: (db: Db) => Promise<T>,
  options: { durable?: boolean } = {},
): Promise<Replayable<T>> {
  const durable = () => (options.durable ? awaitCommittedDurable(pool) : Promise.resolve());
  if (!request) {
    // Without a key the work is one statement that commits by itself: lost on its way back, it may have been made.
    const value = await work(pool).catch(throwOutcomeUnknownIfLost);
    await durable();
    return { value, replayed: false };
  }
  const scope = { accountId, ...request };
  const claimId = randomUUID();
  const release = () => releaseClaim(pool, scope, claimId, Date.now() + IDEMPOTENCY_ABANDONED_AFTER_SECONDS * 1000);
  let claim: IdempotencyClaim;
  try {
    claim = await claimIdempotencyKey(pool, scope, claimId);
  } catch (error) {
    // The connection was lost with the claim on its way: it may have been made (the commit done, the answer lost).
    if (isDatabaseUnavailable(error)) await release();
    throw error;
  }
  if (claim.outcome === 'replay') {
    await durable();
    return { value: JSON.parse(claim.body) as T, replayed: true };
  }
  if (claim.outcome === 'mismatch') throw new IdempotencyError('conflict');
  if (claim.outcome === 'in-progress') throw new IdempotencyError('in-progress');
  try {
    const value = await withTransaction(pool, async (client) => {
      const answer = await work(client);
      await completeIdempotencyKey(client, scope, JSON.stringify(answer));
      return answer;
    });
    await durable();
    return { value, replayed: false };
  } catch (error) {
    await release();
    throw error;
  }
}

/**
 * Releases the claim of a failed request. When the database does not answer, which is often why the request failed,
 * the release is tried again in the background until it succeeds or the claim counts as abandoned anyway: otherwise
 * the client's retry once the database is back would be told for a minute that its request is still running.
 */
async function releaseClaim(pool: Pool, scope: IdempotencyScope, claimId: string, retryUntil: number): Promise<void> {
  try {
    await releaseIdempotencyKey(pool, scope, claimId);
  } catch (error) {
    if (isDatabaseUnavailable(error) && Date.now() < retryUntil) {
      setTimeout(() => void releaseClaim(pool, scope, claimId, retryUntil), RELEASE_RETRY_MS).unref();
    }
  }
}

export type RepeatVerdict = 'replay' | IdempotencyError['kind'];

/**
 * The verdict on a write skipped because its dedupe key was taken: a replay when the holder came from the same request;
 * 'in-progress' when, besides, the holder was not yet committed when this write began; else a conflict.
 */
export function judgeRepeat(holder: { requestHash: string | null; concurrent: boolean }, requestHash: string | null): RepeatVerdict {
  if (holder.requestHash === null || holder.requestHash !== requestHash) return 'conflict';
  return holder.concurrent ? 'in-progress' : 'replay';
}

/** Hash of a request with object keys sorted, so the same JSON sent with another member order is the same request. */
export function hashRequest(body: unknown): string {
  return hash('sha256', stableStringify(body), 'hex');
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
