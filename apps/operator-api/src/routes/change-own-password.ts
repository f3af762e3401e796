// POST /api/v2/operator/session/password: the change-own-password use case, in the session it is sent from.
import { changeOwnPasswordOperation } from '@backbone/contracts';
import { HttpProblem, mountOperation, readSessionCookie, type OperationRoutes } from '@backbone/http';
import { changeOwnPassword } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountChangeOwnPassword(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, changeOwnPasswordOperation, async ({ body, auth, req }) => {
    const sessionId = readSessionCookie(req);
    if (!auth.user || !sessionId) throw new HttpProblem('forbidden', 'An API key has no password to change; sign in to the console as the user.');
    await changeOwnPassword(deps, {
      accountId: auth.accountId,
      user: auth.user,
      sessionId,
      address: req.ip ?? 'unknown',
      currentPassword: body.CurrentPassword,
      newPassword: body.NewPassword,
    });
    return { status: 204, body: undefined, headers: { 'Cache-Control': 'no-store' } };
  });
}
