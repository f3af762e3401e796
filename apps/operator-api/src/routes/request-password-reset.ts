// POST /api/v2/operator/password-reset: the request use case (throttled); the same 202 whether the address is a user's or not.
import { requestPasswordResetOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { requestPasswordReset } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountRequestPasswordReset(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, requestPasswordResetOperation, async ({ body, req }) => {
    await requestPasswordReset(deps, { email: body.Email, address: req.ip ?? 'unknown' });
    return { status: 202, body: undefined, headers: { 'Cache-Control': 'no-store' } };
  });
}
