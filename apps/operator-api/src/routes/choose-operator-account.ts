// POST /api/v2/operator/session/account: the choose-account use case replaces the cookie's session with one bound to the chosen account.
import { chooseOperatorAccountOperation } from '@backbone/contracts';
import { HttpProblem, mountOperation, readSessionCookie, type OperationRoutes } from '@backbone/http';
import { chooseOperatorAccount } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';
import { setSessionCookie } from '../session-cookie.js';

export function mountChooseOperatorAccount(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, chooseOperatorAccountOperation, async ({ body, req, res }) => {
    const sessionId = readSessionCookie(req);
    const chosen = sessionId && (await chooseOperatorAccount(deps, { sessionId, accountId: body.AccountID, idleTimeoutMs: deps.sessions.idleTimeoutMs }));
    if (!chosen) throw new HttpProblem('unauthorized', 'Sign in first.');
    setSessionCookie(req, res, chosen.sessionId, deps.sessions.absoluteLifetimeMs);
    return { status: 204, body: undefined, headers: { 'Cache-Control': 'no-store' } };
  });
}
