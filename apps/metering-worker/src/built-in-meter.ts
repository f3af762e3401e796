// A platform event as a usage entry of its built-in meter: Usage 1 at the event's time, deduplicated by EventID.
// The unique key (account, 'event:<EventID>') in PostgreSQL is what makes one event one entry, whatever the redelivery.
import { JOBS, type PlatformEventName } from '@backbone/contracts';
import type { NewUsageEntry } from '@backbone/db';

interface EventEnvelope {
  EventID: string;
  AccountID: string;
  OccurredAt: number;
}

export function builtInMeterEntry(name: PlatformEventName, event: EventEnvelope, extraInfo: string | null): NewUsageEntry {
  return {
    accountId: event.AccountID.toLowerCase(),
    meter: JOBS[name].meter,
    usage: 1,
    extraInfo,
    occurredAt: event.OccurredAt,
    dedupeKey: `event:${event.EventID.toLowerCase()}`,
    requestHash: null,
  };
}
