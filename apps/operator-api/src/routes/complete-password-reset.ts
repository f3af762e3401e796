// POST /api/v2/operator/password-reset/complete: the complete use case sets the password and opens a session; the answer sets the cookie.
import { completePasswordResetOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { completePasswordReset } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';
import { setSessionCookie } from '../session-cookie.js';

export function mountCompletePasswordReset(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, completePasswordResetOperation, async ({ body, req, res }) => {
    const { sessionId } = await completePasswordReset(deps, {
      token: body.Token,
      newPassword: body.NewPassword,
      absoluteLifetimeMs: deps.sessions.absoluteLifetimeMs,
    });
    setSessionCookie(req, res, sessionId, deps.sessions.absoluteLifetimeMs);
    return { status: 204, body: undefined, headers: { 'Cache-Control': 'no-store' } };
  });
}
