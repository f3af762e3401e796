// The one place that tells "PostgreSQL cannot be reached right now" from "this statement failed": a server that
// refuses connections, cuts them, is shutting down, starting up or recovering, or has no connection slot left. The
// first kind says nothing about the request, which may be sent again as it is once the server is back; the APIs
// answer it with 503 and Retry-After (packages/http's error handler), everything else stays an unexpected error.

/** SQLSTATEs of a server going away, coming back, or refusing the connection (class 08 is added below). */
const UNAVAILABLE_SQLSTATES = new Set([
  // admin_shutdown: a fast shutdown, or pg_terminate_backend.
  '57P01',
  // crash_shutdown: another server process crashed and the postmaster resets every connection.
  '57P02',
  // cannot_connect_now: starting up, not yet accepting connections, in recovery, shutting down.
  '57P03',
  // too_many_connections: no connection slot free.
  '53300',
]);

/** The socket's own errors: nothing listens, the connection was reset, the host cannot be reached or named. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/**
 * node-postgres (pg 8, pg-pool 3) reports these with a message only: the server closed the socket, a connection
 * attempt timed out (client or pool), a query was sent on a client whose connection had already failed.
 */
const UNAVAILABLE_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
]);

/**
 * The connection was lost after a write was sent (a COMMIT, or a statement that commits by itself), before its answer
 * came back: the server may have made the change or not, and only a look (or a retry that cannot apply twice) tells.
 */
export class OutcomeUnknownError extends Error {
  override name = 'OutcomeUnknownError';
  constructor(cause: unknown) {
    super('The connection to the database was lost after the change was sent: it may or may not have been made.', { cause });
  }
}

/**
 * A lost connection that may have carried the statement to the server and its change with it: the socket was cut or
 * reset with no answer (the client cannot tell whether the server got the statement, nor whether it ran it), or the
 * server ended in a crash (57P02: its WAL may hold a commit made just before). A connection that never opened, a full
 * server, a client already known broken, or a server that answered with its own refusal (57P01, a shutdown or
 * pg_terminate_backend, ends the statement before its commit) made nothing.
 */
export function isLostInFlight(error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code === '57P02';
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return false;
  return !NOTHING_SENT_MESSAGES.has(String(message));
}

/** Rethrows `error`, as an OutcomeUnknownError when it lost a write on its way (for `.catch` after a write). */
export function throwOutcomeUnknownIfLost(error: unknown): never {
  throw isLostInFlight(error) && !(error instanceof OutcomeUnknownError) ? new OutcomeUnknownError(error) : error;
}

const NOTHING_SENT_MESSAGES = new Set([
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
]);

/**
 * Whether `error` (or what it wraps: `cause`, an AggregateError's errors) is a connection-class failure of
 * PostgreSQL. Class 08 (connection exception) counts, but not 08P01 (protocol violation), which is a bug, not an outage.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return isUnavailable(error, 0);
}

function isUnavailable(error: unknown, depth: number): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code)) return true;
    if (code.startsWith('08') && code !== '08P01') return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.has(message)) return true;
  if (Array.isArray(errors) && errors.some((inner) => isUnavailable(inner, depth + 1))) return true;
  return isUnavailable(cause, depth + 1);
}
