// POST /api/v2/operator/session: the sign-in use case checks the credentials (throttled); the answer sets the cookie.
import { signInOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { signIn } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';
import { setSessionCookie } from '../session-cookie.js';

export function mountSignIn(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, signInOperation, async ({ body, req, res }) => {
    const { sessionId } = await signIn(deps, {
      email: body.Email,
      password: body.Password,
      address: req.ip ?? 'unknown',
      absoluteLifetimeMs: deps.sessions.absoluteLifetimeMs,
    });
    setSessionCookie(req, res, sessionId, deps.sessions.absoluteLifetimeMs);
    return { status: 204, body: undefined, headers: { 'Cache-Control': 'no-store' } };
  });
}
