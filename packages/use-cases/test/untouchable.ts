// Stand-ins for what a use case reads from (the pool, the queues) in tests of the decisions it takes before reading
// anything: any use fails with WENT_ON_TO_READ, so a test sees both that a refusal came first and that an accepted
// request went on to read.
import type { Pool } from '@backbone/db';

export const WENT_ON_TO_READ = 'the use case went on to read';

export function untouchable<T>(): T {
  return new Proxy(
    {},
    {
      get(_target, member) {
        // Awaiting a value asks for its `then`: the stand-in is no promise.
        if (member === 'then') return undefined;
        throw new Error(WENT_ON_TO_READ);
      },
    },
  ) as T;
}

export const untouchablePool = untouchable<Pool>();

/** The error a promise rejects with (fails when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}
