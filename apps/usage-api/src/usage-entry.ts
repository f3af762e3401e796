// What the single and the batch POST share: turning a validated entry into a row to insert, the rule the schema
// cannot express (ExtraInfo size in bytes), the idempotency hash, and the entry as the API shows it.
import { MAX_EXTRA_INFO_BYTES, type RecordUsageEntryBody, type UsageEntry } from '@backbone/contracts';
import type { InsertOutcome, NewUsageEntry, StoredUsageEntry } from '@backbone/db';
import { decimalToNumber, type FieldError } from '@backbone/domain';
import { hashRequest } from '@backbone/http';

type EntryInput = Pick<RecordUsageEntryBody, 'Meter' | 'Usage' | 'ExtraInfo' | 'OccurredAt'>;

/** Checks left after the schema passed; same messages for the single and the batch POST. */
export function usageEntryLimitErrors(input: EntryInput): FieldError[] {
  if (input.ExtraInfo !== undefined && Buffer.byteLength(input.ExtraInfo, 'utf8') > MAX_EXTRA_INFO_BYTES) {
    return [{ field: 'ExtraInfo', message: `ExtraInfo must be at most ${MAX_EXTRA_INFO_BYTES} bytes (64 KiB) of UTF-8.` }];
  }
  return [];
}

/**
 * The hash that tells a retry from a different request under the same idempotency key. It covers only the entry's
 * members, so the same entry sent as a single POST or inside a batch is the same request.
 */
export function entryHash(input: EntryInput): string {
  const members: Record<string, unknown> = { Meter: input.Meter, Usage: input.Usage };
  if (input.ExtraInfo !== undefined) members.ExtraInfo = input.ExtraInfo;
  if (input.OccurredAt !== undefined) members.OccurredAt = input.OccurredAt;
  return hashRequest(members);
}

export function toNewUsageEntry(input: EntryInput, context: { accountId: string; idempotencyKey: string | null; now: number }): NewUsageEntry {
  return {
    accountId: context.accountId,
    meter: input.Meter,
    // The shortest decimal text of the JSON number, stored as numeric: 0.1 stays exactly 0.1.
    usage: String(input.Usage),
    extraInfo: input.ExtraInfo ?? null,
    occurredAt: input.OccurredAt ?? context.now,
    // One key space for the header of a single POST and the IdempotencyKey of a batch entry.
    dedupeKey: context.idempotencyKey === null ? null : `key:${context.idempotencyKey}`,
    requestHash: context.idempotencyKey === null ? null : entryHash(input),
  };
}

export function toUsageEntry(stored: StoredUsageEntry): UsageEntry {
  return { ID: stored.id, Meter: stored.meter, Usage: decimalToNumber(stored.usage), ExtraInfo: stored.extraInfo, OccurredAt: stored.occurredAt };
}

export type EntryOutcome = { status: 'created' | 'replayed'; entry: UsageEntry; concurrent: boolean } | { status: 'conflict' };

/**
 * A skipped insert is a replay when the key's entry came from the same request body, else a conflict. `concurrent`
 * (the key's holder was still uncommitted when this insert began) is passed on for the caller to judge.
 */
export function classifyOutcome(outcome: InsertOutcome, requestHash: string | null): EntryOutcome {
  if (outcome.created) return { status: 'created', entry: toUsageEntry(outcome.entry), concurrent: false };
  if (outcome.existing.requestHash !== null && outcome.existing.requestHash === requestHash) {
    return { status: 'replayed', entry: toUsageEntry(outcome.existing), concurrent: outcome.concurrent };
  }
  return { status: 'conflict' };
}

export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
