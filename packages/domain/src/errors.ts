// Typed failures of the domain. Domain code throws these and knows nothing of HTTP;
// the HTTP layer maps each code to a status and problem type in one registry.
import type { FieldError } from '@backbone/contracts';

export type { FieldError };

export type DomainErrorCode =
  | 'validation'
  | 'not-found'
  | 'insufficient-capacity'
  | 'timeslot-unavailable'
  | 'invalid-transition'
  | 'hold-expired'
  | 'cancellation-window-closed'
  | 'change-window-closed'
  | 'capacity-below-booked'
  | 'webhook-endpoint-limit'
  | 'invalid-request'
  | 'unsupported-media-type'
  | 'payload-too-large'
  | 'file-quota-exceeded'
  | 'uploads-in-progress'
  | 'file-in-use'
  | 'last-owner'
  | 'too-many-holds'
  | 'slug-taken'
  | 'places-available'
  | 'link-not-valid'
  /** A role asks for something within an operation that its grants do not allow (the permission table's grants). */
  | 'forbidden';

export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** Extra members for the problem document (for example the places left). */
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** A request that breaks a rule on one or more named fields (HTTP 422). */
export class ValidationError extends DomainError {
  constructor(readonly errors: FieldError[]) {
    super('validation', errors.map((e) => e.message).join('; '), { errors });
  }
}

export function notFound(what: string): DomainError {
  return new DomainError('not-found', `${what} not found.`);
}
