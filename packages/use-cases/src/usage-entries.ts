// What recording one entry and a batch share: the rule the schema cannot express (ExtraInfo size in bytes), the
// request hash that tells a retry from another request under the same key, the row to insert, and the entry as the
// API shows it.
import { MAX_EXTRA_INFO_BYTES, type RecordUsageEntryBody, type UsageEntry } from '@backbone/contracts';
import type { InsertOutcome, NewUsageEntry, StoredUsageEntry } from '@backbone/db';
import { decimalToNumber, type FieldError } from '@backbone/domain';
import { hashRequest, judgeRepeat, type RepeatVerdict } from './idempotency.js';

export type UsageEntryInput = Pick<RecordUsageEntryBody, 'Meter' | 'Usage' | 'ExtraInfo' | 'OccurredAt'>;

/** Checks left after the schema passed; same messages for the single and the batch POST. */
export function usageEntryLimitErrors(input: UsageEntryInput): FieldError[] {
  if (input.ExtraInfo !== undefined && Buffer.byteLength(input.ExtraInfo, 'utf8') > MAX_EXTRA_INFO_BYTES) {
    return [{ field: 'ExtraInfo', message: `ExtraInfo must be at most ${MAX_EXTRA_INFO_BYTES} bytes (64 KiB) of UTF-8.` }];
  }
  return [];
}

/**
 * The hash that tells a retry from a different request under the same idempotency key. It covers only the entry's
 * members, so the same entry sent as a single POST or inside a batch is the same request.
 */
function entryHash(input: UsageEntryInput): string {
  const members: Record<string, unknown> = { Meter: input.Meter, Usage: input.Usage };
  if (input.ExtraInfo !== undefined) members.ExtraInfo = input.ExtraInfo;
  if (input.OccurredAt !== undefined) members.OccurredAt = input.OccurredAt;
  return hashRequest(members);
}

/** An entry's Idempotency-Key (the single POST's header, or a batch entry's IdempotencyKey) with who sent it. */
export interface EntryIdempotencyKey {
  caller: string;
  key: string;
}

export function toNewUsageEntry(
  input: UsageEntryInput,
  context: { accountId: string; idempotencyKey: EntryIdempotencyKey | null; now: number },
): NewUsageEntry {
  return {
    accountId: context.accountId,
    meter: input.Meter,
    // The shortest decimal text of the JSON number, stored as numeric: 0.1 stays exactly 0.1.
    usage: String(input.Usage),
    extraInfo: input.ExtraInfo ?? null,
    occurredAt: input.OccurredAt ?? context.now,
    // One key space per caller for the header of a single POST and the IdempotencyKey of a batch entry: both add to the
    // same ledger. Another caller's identical key is another key. ('key:<K>', account-wide, is the form of entries
    // stored before keys were the caller's; no new entry is stored under it.)
    dedupeKey: context.idempotencyKey === null ? null : `idem:${context.idempotencyKey.caller}:${context.idempotencyKey.key}`,
    requestHash: context.idempotencyKey === null ? null : entryHash(input),
  };
}

function toUsageEntry(stored: StoredUsageEntry): UsageEntry {
  return { ID: stored.id, Meter: stored.meter, Usage: decimalToNumber(stored.usage), ExtraInfo: stored.extraInfo, OccurredAt: stored.occurredAt };
}

/** A created entry, or the entry that holds the dedupe key with the verdict on the repeat; a conflict shows nothing. */
export type EntryOutcome = { verdict: 'created' | Exclude<RepeatVerdict, 'conflict'>; entry: UsageEntry } | { verdict: 'conflict' };

/** A stored entry is created; a skipped one (its dedupe key was taken) is judged by the idempotency module. */
export function entryOutcome(outcome: InsertOutcome, requestHash: string | null): EntryOutcome {
  if (outcome.created) return { verdict: 'created', entry: toUsageEntry(outcome.entry) };
  const verdict = judgeRepeat({ requestHash: outcome.existing.requestHash, concurrent: outcome.concurrent }, requestHash);
  return verdict === 'conflict' ? { verdict } : { verdict, entry: toUsageEntry(outcome.existing) };
}

export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
