// The one idempotency module. A request that carries a key is answered once: a retry with the same key and the same
// request gets the first answer again, the same key with another request is a conflict, and a retry racing the
// first is told to wait. A key is scoped by who sent it and what it acts on: the caller (the partner of an ota key,
// else the API key or the signed-in user) owns its keys, and a stored answer is given only to the same method, the
// same concrete path and the same body; another caller's identical key is another key. Two ways to keep the answer,
// one set of verdicts:
// - runIdempotently claims the key in its own table and stores the answer in the transaction that does the work;
// - writes that carry their own dedupe key (usage entries, where the claim would cost a round trip) ask judgeRepeat.
import { hash } from 'node:crypto';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, withTransaction, type Db, type Pool } from '@backbone/db';
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
 * Runs `work` once per key. Without a key, `work` runs on the pool (a single statement needs no transaction). With
 * one, the key is claimed, `work` runs in a transaction and its answer (JSON) commits with it; when `work` throws,
 * the claim is released, so only answers that did their work are kept and a failed request can be retried.
 */
export async function runIdempotently<T>(pool: Pool, accountId: string, request: IdempotencyRequest | null, work: (db: Db) => Promise<T>): Promise<Replayable<T>> {
  if (!request) return { value: await work(pool), replayed: false };
  const scope = { accountId, ...request };
  const claim = await claimIdempotencyKey(pool, scope);
  if (claim.outcome === 'replay') return { value: JSON.parse(claim.body) as T, replayed: true };
  if (claim.outcome === 'mismatch') throw new IdempotencyError('conflict');
  if (claim.outcome === 'in-progress') throw new IdempotencyError('in-progress');
  try {
    const value = await withTransaction(pool, async (client) => {
      const answer = await work(client);
      await completeIdempotencyKey(client, scope, JSON.stringify(answer));
      return answer;
    });
    return { value, replayed: false };
  } catch (error) {
    await releaseIdempotencyKey(pool, scope).catch(() => undefined);
    throw error;
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
