// DELETE /api/v2/operator/session: ends the caller's session (whatever state it is in) and clears its cookie.
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';

export const signOutOperation = {
  operationId: 'signOut',
  method: 'delete',
  path: '/api/v2/operator/session',
  summary: 'Sign out of the operator console',
  tags: operatorTags,
  scope: 'admin',
  description:
    "Ends any session of the cookie's: bound to an account or not yet, on a one-time password or not (204 also without one). " +
    "Sent by the console: the Origin must be the service's own (or, without one, Sec-Fetch-Site: same-origin).",
  auth: 'none',
  responses: {
    204: { description: 'Signed out; the session no longer works.' },
    403: { description: 'The request came from another origin.' },
  },
} as const satisfies Operation;
