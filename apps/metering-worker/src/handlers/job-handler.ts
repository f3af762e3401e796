// What a job handler is, and the handler map the worker runs: typed from the job catalog, and built so that the
// worker refuses to start when a platform event has no handler or two.
import { PLATFORM_EVENT_NAMES, type JobPayloads, type PlatformEventName } from '@backbone/contracts';
import type { NewUsageEntry } from '@backbone/db';

/** What handlers may do; the worker provides it. */
export interface HandlerContext {
  /**
   * Stores one usage entry (group-committed with other jobs' entries) and answers whether it was stored: false when
   * its dedupe key already held an entry, which then stays as it was.
   */
  recordUsage(entry: NewUsageEntry): Promise<boolean>;
}

export interface JobHandler<N extends PlatformEventName> {
  readonly job: N;
  /** Receives a payload already validated against the catalog schema. */
  handle(payload: JobPayloads[N], ctx: HandlerContext): Promise<void>;
}

export type AnyJobHandler = { [N in PlatformEventName]: JobHandler<N> }[PlatformEventName];
export type HandlerMap = { readonly [N in PlatformEventName]: JobHandler<N> };

export function defineHandler<N extends PlatformEventName>(job: N, handle: JobHandler<N>['handle']): JobHandler<N> {
  return { job, handle };
}

export class HandlerRegistrationError extends Error {
  override name = 'HandlerRegistrationError';
}

/** One handler per platform event of the catalog, or a HandlerRegistrationError naming what is missing or doubled. */
export function buildHandlerMap(handlers: readonly AnyJobHandler[]): HandlerMap {
  const byJob = new Map<string, AnyJobHandler[]>();
  for (const handler of handlers) byJob.set(handler.job, [...(byJob.get(handler.job) ?? []), handler]);
  const problems: string[] = [];
  for (const name of PLATFORM_EVENT_NAMES) {
    const found = byJob.get(name)?.length ?? 0;
    if (found === 0) problems.push(`no handler for '${name}'`);
    if (found > 1) problems.push(`${found} handlers for '${name}'`);
  }
  for (const name of byJob.keys()) {
    if (!(PLATFORM_EVENT_NAMES as readonly string[]).includes(name)) problems.push(`a handler for '${name}', which is not a platform event of the catalog`);
  }
  if (problems.length > 0) throw new HandlerRegistrationError(`The worker cannot start: ${problems.join('; ')}.`);
  return Object.fromEntries(handlers.map((handler) => [handler.job, handler])) as unknown as HandlerMap;
}
