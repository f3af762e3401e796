// An account's failed events are told apart by their job id (`<accountId>.<eventId>`): a replay of another account's
// job is not found, before the queues are asked.
import { describe, expect, it } from 'vitest';
import type { EventQueues } from '@backbone/publisher';
import { DomainError } from '@backbone/domain';
import { replayFailedEvent } from '../src/failed-events.js';
import { rejectionOf, untouchable, WENT_ON_TO_READ } from './untouchable.js';

const ACCOUNT = 'd3e0d3e0-0000-4000-8000-0000000000aa';
const EVENT = '00000000-0000-4000-8000-0000000000e1';
const replay = (accountId: string, jobId: string) => replayFailedEvent({ queues: untouchable<EventQueues>() }, { accountId, jobId });

describe('replayFailedEvent', () => {
  it("answers not found for another account's job, or a job id that is not an account's", async () => {
    for (const jobId of [`d3e0d3e0-0000-4000-8000-0000000000bb.${EVENT}`, `${ACCOUNT}${EVENT}`, ACCOUNT, `x${ACCOUNT}.${EVENT}`, EVENT]) {
      const error = await rejectionOf(replay(ACCOUNT, jobId));
      expect(error, jobId).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('not-found');
      expect((error as DomainError).message).toBe('Failed event not found.');
    }
  });

  it("asks the queues for the account's own job, the account id in any case", async () => {
    expect(((await rejectionOf(replay(ACCOUNT, `${ACCOUNT}.${EVENT}`))) as Error).message).toBe(WENT_ON_TO_READ);
    expect(((await rejectionOf(replay(ACCOUNT.toUpperCase(), `${ACCOUNT}.${EVENT}`))) as Error).message).toBe(WENT_ON_TO_READ);
  });
});
