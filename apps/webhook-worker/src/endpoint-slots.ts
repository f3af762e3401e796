// The per-endpoint cap on attempts in flight in one process: a slow or dead endpoint holds at most `max` of the
// process's delivery slots, and the jobs over the cap go back to the queue for a while without counting an attempt.
// The worker brings one back as soon as one of its endpoint's slots frees; the while they wait otherwise lasts until
// the endpoint's oldest attempt in flight must have ended (an attempt lasts at most `maxBackOffMs`), when a slot is
// sure to be free.

export interface EndpointSlots {
  /** Takes a slot for an attempt to the endpoint and returns its release, or returns null when all are taken. */
  take(endpointId: string): (() => void) | null;
  isFull(endpointId: string): boolean;
  /** How long a job over the endpoint's cap waits at most before it looks again, in ms (before jitter). */
  backOff(endpointId: string): number;
}

export function createEndpointSlots(options: { max: number; minBackOffMs: number; maxBackOffMs: number }): EndpointSlots {
  // Start times of the attempts in flight, by endpoint; an endpoint with none has no entry.
  const inFlight = new Map<string, Set<number>>();
  let sequence = 0;
  const starts = new Map<number, number>();

  return {
    take(endpointId) {
      const attempts = inFlight.get(endpointId) ?? new Set<number>();
      if (attempts.size >= options.max) return null;
      const id = ++sequence;
      starts.set(id, Date.now());
      attempts.add(id);
      inFlight.set(endpointId, attempts);
      return () => {
        starts.delete(id);
        attempts.delete(id);
        if (attempts.size === 0 && inFlight.get(endpointId) === attempts) inFlight.delete(endpointId);
      };
    },
    isFull(endpointId) {
      return (inFlight.get(endpointId)?.size ?? 0) >= options.max;
    },
    backOff(endpointId) {
      const attempts = inFlight.get(endpointId);
      if (!attempts) return options.minBackOffMs;
      let oldest = Date.now();
      for (const id of attempts) oldest = Math.min(oldest, starts.get(id) ?? oldest);
      return Math.min(options.maxBackOffMs, Math.max(options.minBackOffMs, oldest + options.maxBackOffMs - Date.now()));
    },
  };
}
