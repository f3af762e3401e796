// What recording one usage entry and a batch share: the ExtraInfo limit in bytes, the row to insert (its dedupe key
// per caller and its request hash), and the verdict on an entry whose dedupe key was taken.
import { describe, expect, it } from 'vitest';
import type { StoredUsageEntry } from '@backbone/db';
import { entryOutcome, toNewUsageEntry, usageEntryLimitErrors, type UsageEntryInput } from '../src/usage-entries.js';

const ACCOUNT = '00000000-0000-4000-8000-0000000000aa';
const entry: UsageEntryInput = { Meter: 'api_calls', Usage: 0.1, ExtraInfo: 'batch 7', OccurredAt: 1_780_000_000 };
const context = (idempotencyKey: { caller: string; key: string } | null = null) => ({ accountId: ACCOUNT, idempotencyKey, now: 1_790_000_000 });

describe('usageEntryLimitErrors', () => {
  it('takes ExtraInfo up to 64 KiB of UTF-8, counted in bytes, not characters', () => {
    expect(usageEntryLimitErrors({ ...entry, ExtraInfo: 'a'.repeat(65_536) })).toEqual([]);
    expect(usageEntryLimitErrors({ ...entry, ExtraInfo: undefined })).toEqual([]);
    const refusal = [{ field: 'ExtraInfo', message: 'ExtraInfo must be at most 65536 bytes (64 KiB) of UTF-8.' }];
    expect(usageEntryLimitErrors({ ...entry, ExtraInfo: 'a'.repeat(65_537) })).toEqual(refusal);
    // 32,769 characters of two bytes each.
    expect(usageEntryLimitErrors({ ...entry, ExtraInfo: 'é'.repeat(32_769) })).toEqual(refusal);
  });
});

describe('toNewUsageEntry', () => {
  it('stores the usage as the shortest decimal text of the number, and the entry as sent', () => {
    expect(toNewUsageEntry(entry, context())).toEqual({
      accountId: ACCOUNT,
      meter: 'api_calls',
      usage: '0.1',
      extraInfo: 'batch 7',
      occurredAt: 1_780_000_000,
      dedupeKey: null,
      requestHash: null,
    });
    expect(toNewUsageEntry({ ...entry, Usage: 1e21 }, context()).usage).toBe('1e+21');
  });

  it('dates an entry without OccurredAt now, and stores no ExtraInfo as null', () => {
    expect(toNewUsageEntry({ Meter: 'api_calls', Usage: 3 }, context())).toMatchObject({ occurredAt: 1_790_000_000, extraInfo: null });
  });

  it("keys an entry with an Idempotency-Key by its caller, so another caller's same key is another key", () => {
    const mine = toNewUsageEntry(entry, context({ caller: 'key:k1', key: 'run-42' }));
    const theirs = toNewUsageEntry(entry, context({ caller: 'partner:p2', key: 'run-42' }));
    expect(mine.dedupeKey).toBe('idem:key:k1:run-42');
    expect(theirs.dedupeKey).toBe('idem:partner:p2:run-42');
    expect(mine.requestHash).toMatch(/^[0-9a-f]{64}$/);
    expect(theirs.requestHash).toBe(mine.requestHash);
  });

  it("hashes only the entry's members: the same entry alone or in a batch (with its IdempotencyKey) is the same request", () => {
    const key = context({ caller: 'key:k1', key: 'run-42' });
    const single = toNewUsageEntry(entry, key).requestHash;
    const inBatch = toNewUsageEntry({ ...entry, IdempotencyKey: 'run-42' } as UsageEntryInput, key).requestHash;
    expect(inBatch).toBe(single);
    expect(toNewUsageEntry({ ...entry, Usage: 0.2 }, key).requestHash).not.toBe(single);
    expect(toNewUsageEntry({ ...entry, ExtraInfo: undefined }, key).requestHash).not.toBe(single);
    expect(toNewUsageEntry({ ...entry, OccurredAt: undefined }, key).requestHash).not.toBe(single);
  });
});

describe('entryOutcome', () => {
  const stored = (requestHash: string | null): StoredUsageEntry => ({
    id: 9,
    accountId: ACCOUNT,
    meter: 'api_calls',
    usage: '0.10',
    extraInfo: null,
    occurredAt: 1_780_000_000,
    requestHash,
  });
  const shown = { ID: 9, Meter: 'api_calls', Usage: 0.1, ExtraInfo: null, OccurredAt: 1_780_000_000 };

  it('shows a created entry as the API does, its exact decimal as a number', () => {
    expect(entryOutcome({ created: true, entry: stored('h') }, 'h')).toEqual({ verdict: 'created', entry: shown });
  });

  it('replays the stored entry for the same request, says in-progress while it is uncommitted, and shows nothing on a conflict', () => {
    expect(entryOutcome({ created: false, existing: stored('h'), concurrent: false }, 'h')).toEqual({ verdict: 'replay', entry: shown });
    expect(entryOutcome({ created: false, existing: stored('h'), concurrent: true }, 'h')).toEqual({ verdict: 'in-progress', entry: shown });
    expect(entryOutcome({ created: false, existing: stored('h'), concurrent: false }, 'other')).toEqual({ verdict: 'conflict' });
  });
});
