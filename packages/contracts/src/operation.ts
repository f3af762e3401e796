// The description of one HTTP operation: the same object drives routing, validation, scopes and the OpenAPI document.
import type { JSONSchema } from 'json-schema-to-ts';

export const OPERATOR_ROLES = ['owner', 'staff'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const SCOPES = ['ota', 'usage:write', 'usage:read', 'platform:events', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

export interface OperationResponse {
  readonly description: string;
  readonly schema?: JSONSchema;
  readonly headers?: Readonly<Record<string, { readonly description: string }>>;
}

export interface Operation {
  readonly operationId: string;
  readonly method: 'get' | 'post' | 'patch' | 'delete';
  /** Express-style path, `:Name` for path parameters. */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly scope: Scope;
  /**
   * Who may call it: an API key with `scope` ('key', the default); the operator console's session cookie or an
   * `admin` key ('session-or-key'); anyone ('none', signing in).
   */
  readonly auth?: 'key' | 'session-or-key' | 'none';
  /** Operator operations for the `owner` role only (a `staff` session gets 403); an admin key counts as owner. */
  readonly ownerOnly?: boolean;
  readonly params?: JSONSchema;
  readonly query?: JSONSchema;
  /** Status for a query that fails its schema: 422 by default, 400 where the contract says so (resolve-product). */
  readonly queryErrorStatus?: 400 | 422;
  readonly body?: JSONSchema;
  /** The body may be left out altogether (read as an empty object); when sent, it must be JSON. */
  readonly bodyOptional?: boolean;
  /** Accepts an Idempotency-Key header. */
  readonly idempotent?: boolean;
  readonly responses: Readonly<Record<number, OperationResponse>>;
}
