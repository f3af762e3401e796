// The typed way Node services put platform events on the queues named in the job catalog.
import type { JobName, JobPayloads } from '@backbone/contracts';

export interface EventPublisher {
  /** Validates the payload against the catalog (throws on a malformed event, enqueuing nothing), then enqueues it. */
  publish<N extends JobName>(name: N, payload: JobPayloads[N]): Promise<void>;
  close(): Promise<void>;
}
