// POST /api/v2/operator/invitations/accept: the accept use case creates the user (and person) and opens a session; the answer sets the cookie.
import { acceptOperatorInvitationOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { acceptOperatorInvitation } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';
import { setSessionCookie } from '../session-cookie.js';

export function mountAcceptOperatorInvitation(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, acceptOperatorInvitationOperation, async ({ body, req, res }) => {
    const { sessionId } = await acceptOperatorInvitation(deps, {
      token: body.Token,
      password: body.Password,
      address: req.ip ?? 'unknown',
      absoluteLifetimeMs: deps.sessions.absoluteLifetimeMs,
    });
    setSessionCookie(req, res, sessionId, deps.sessions.absoluteLifetimeMs);
    return { status: 204, body: undefined, headers: { 'Cache-Control': 'no-store' } };
  });
}
