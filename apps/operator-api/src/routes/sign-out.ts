// DELETE /api/v2/operator/session: the session ends on the server, and its cookie is cleared.
import { signOutOperation } from '@backbone/contracts';
import { mountOperation, readSessionCookie, type OperationRoutes } from '@backbone/http';
import { signOut } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';
import { clearSessionCookie } from '../session-cookie.js';

export function mountSignOut(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, signOutOperation, async ({ req, res }) => {
    const sessionId = readSessionCookie(req);
    if (sessionId) await signOut(deps, sessionId);
    clearSessionCookie(req, res);
    return { status: 204, body: undefined };
  });
}
