// GET /api/v2/operator/session: the signed-in user (or the admin key, acting as an owner) and its account.
import { getOperatorSessionOperation } from '@backbone/contracts';
import { findAccount } from '@backbone/db';
import { notFound } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { OperatorAppDeps } from '../deps.js';

export function mountGetOperatorSession(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, getOperatorSessionOperation, async ({ auth }) => {
    const account = await findAccount(deps.pool, auth.accountId);
    if (!account) throw notFound('Account');
    return {
      status: 200,
      body: { AccountID: account.id, AccountName: account.name, TimeZone: account.timeZone, Email: auth.user?.email ?? null, Role: auth.user?.role ?? 'owner' },
      headers: { 'Cache-Control': 'no-store' },
    };
  });
}
