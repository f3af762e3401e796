// The description of one HTTP operation: the same object drives routing, validation, scopes and the OpenAPI document.
import type { JSONSchema } from 'json-schema-to-ts';

export const OPERATOR_ROLES = ['owner', 'staff'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const SCOPES = ['ota', 'usage:write', 'usage:read', 'platform:events', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

export interface OperationResponse {
  readonly description: string;
  readonly schema?: JSONSchema;
  /** Media types of a body that is not JSON (a file): the answer is the bytes themselves. */
  readonly contentTypes?: readonly string[];
  readonly headers?: Readonly<Record<string, { readonly description: string }>>;
}

/**
 * Who may call an operator operation: the owner may do everything, so every list starts with 'owner'; the roles after
 * it are the others also allowed. An admin API key acts as an owner.
 */
export type OperatorRoles = readonly ['owner', ...Exclude<OperatorRole, 'owner'>[]];

interface OperationCommon {
  readonly operationId: string;
  readonly method: 'get' | 'post' | 'patch' | 'delete';
  /** Express-style path, `:Name` for path parameters. */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly scope: Scope;
  readonly params?: JSONSchema;
  readonly query?: JSONSchema;
  /** Status for a query that fails its schema: 422 by default, 400 where the contract says so (resolve-product). */
  readonly queryErrorStatus?: 400 | 422;
  readonly body?: JSONSchema;
  /**
   * A body that is not JSON, which the handler reads (streams) itself: its media types and largest size, for the
   * OpenAPI document. No `body` schema goes with it.
   */
  readonly rawBody?: { readonly contentTypes: readonly string[]; readonly maxBytes: number; readonly description: string };
  /** The body may be left out altogether (read as an empty object); when sent, it must be JSON. */
  readonly bodyOptional?: boolean;
  /** Accepts an Idempotency-Key header. */
  readonly idempotent?: boolean;
  readonly responses: Readonly<Record<number, OperationResponse>>;
}

/** Called with an API key that has `scope` ('key', the default), or by anyone ('none', signing in): no roles. */
export interface KeyOperation extends OperationCommon {
  readonly auth?: 'key' | 'none';
  readonly roles?: never;
}

/**
 * An operator (console) operation, called with the console's session cookie or an `admin` key. It cannot be declared
 * without saying which roles may call it: the permission table (permissions.ts) is read from these declarations.
 */
export interface SessionOperation extends OperationCommon {
  readonly auth: 'session-or-key';
  readonly roles: OperatorRoles;
  /**
   * Callable by a user who must still replace a one-time password (changing it, signing out); every other operation
   * answers such a user 403 `/password-change-required`.
   */
  readonly beforePasswordChange?: true;
}

/**
 * A public operation (an operator's booking page): no key, no session, any origin. Its own limits are per client
 * address (the shop's rate limits), so it has no scope.
 */
export interface PublicOperation extends Omit<OperationCommon, 'scope'> {
  readonly auth: 'public';
  readonly scope?: never;
  readonly roles?: never;
}

export type Operation = KeyOperation | SessionOperation | PublicOperation;
