// What the operator app takes from whoever composes it (server.ts, a test); app.ts and every route read it from here.
import type { FileStore } from '@backbone/file-store';
import type { Logger, RouteDeps, SessionLifetimes, SessionVerifier } from '@backbone/http';
import type { EventQueues } from '@backbone/publisher';
import type { KeyRevocations, PasswordResetThrottle, SignInThrottle } from '@backbone/use-cases';

export interface OperatorAppDeps extends RouteDeps {
  logger: Logger;
  /** Base URI of the problem `type`s. */
  problemBase: string;
  /** Record the HTTP request metrics (METRICS_ENABLED; default true). */
  recordMetrics?: boolean;
  sessionVerifier: SessionVerifier;
  /** Where a key revocation is announced to every running API process (Redis). */
  keyRevocations: KeyRevocations;
  sessions: SessionLifetimes;
  throttle: SignInThrottle;
  /** "Forgot your password?" requests counted per e-mail and per address. */
  resetThrottle: PasswordResetThrottle;
  /** The event queues, for the failed set (list and replay). */
  queues: EventQueues;
  /** The built console's directory, served under /console; null serves none (API tests). */
  consoleDir: string | null;
  /** Where uploaded files are kept (FILE_STORE): the desk's uploads and the download. */
  fileStore: FileStore;
  /** Bytes one account's files may take together (FILE_QUOTA_BYTES), counted by the desk's uploads as by the partners'. */
  fileQuotaBytes: number;
  /** Readiness of Redis, for /readyz. */
  redisReady: () => Promise<boolean>;
}
