// GET /api/v2/operator/session: the signed-in user (or the admin key, acting as an owner), its account and the person's other accounts.
import { getOperatorSessionOperation } from '@backbone/contracts';
import { findAccount, listPersonAccounts } from '@backbone/db';
import { notFound } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { OperatorAppDeps } from '../deps.js';

export function mountGetOperatorSession(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, getOperatorSessionOperation, async ({ auth }) => {
    const account = await findAccount(deps.pool, auth.accountId);
    if (!account) throw notFound('Account');
    // The person's own accounts only: a session never names an account its person is no user of.
    const accounts = auth.user ? await listPersonAccounts(deps.pool, auth.user.personId) : [{ accountId: account.id, accountName: account.name }];
    return {
      status: 200,
      body: {
        AccountID: account.id,
        AccountName: account.name,
        TimeZone: account.timeZone,
        Email: auth.user?.email ?? null,
        Role: auth.user?.role ?? 'owner',
        Accounts: accounts.map((a) => ({ AccountID: a.accountId, AccountName: a.accountName })),
      },
      headers: { 'Cache-Control': 'no-store' },
    };
  });
}
