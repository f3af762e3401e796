// Failures a use case reports that are not rules of the domain: a request key's replay protocol, and a dependency
// that did not answer. The HTTP layer maps each kind to its problem once, in its error handler.

/** The Idempotency-Key belongs to another request body ('conflict'), or its first request is still running. */
export class IdempotencyError extends Error {
  override name = 'IdempotencyError';
  constructor(readonly kind: 'conflict' | 'in-progress') {
    super(
      kind === 'conflict'
        ? 'This Idempotency-Key was already used with a different request body.'
        : 'A request with this Idempotency-Key is still being processed; retry later.',
    );
  }
}

/** A dependency (the event queue) did not take the work; nothing was done, and the same request may be retried. */
export class UnavailableError extends Error {
  override name = 'UnavailableError';
}

/**
 * Sign-in refused: wrong e-mail or password (one answer for both), or too many failures or sign-ins at once (wait
 * `retryAfterSeconds`).
 */
export class SignInError extends Error {
  override name = 'SignInError';
  constructor(
    readonly kind: 'invalid-credentials' | 'rate-limited',
    readonly retryAfterSeconds = 0,
    message = kind === 'invalid-credentials'
      ? 'The e-mail address or the password is wrong.'
      : `Too many failed sign-ins; try again in ${waitInWords(retryAfterSeconds)}.`,
  ) {
    super(message);
  }
}

/** A wait as a person reads it: seconds under a minute, else whole minutes rounded up ("15 minutes", not "897 seconds"). */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
