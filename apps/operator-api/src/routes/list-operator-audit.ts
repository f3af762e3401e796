// GET /api/v2/operator/audit (owners): one keyset page of the account's audit log, newest first.
import { listOperatorAuditOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { listOperatorAudit } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';
import { decodeCursor, encodeCursor } from '../cursor.js';

export function mountListOperatorAudit(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, listOperatorAuditOperation, async ({ query, auth }) => {
    const { Action, From, To, Limit, Cursor } = query;
    const request = { accountId: auth.accountId, timeZone: auth.accountTimeZone, action: Action, from: From, to: To };
    const page = await listOperatorAudit(deps, { ...request, limit: Limit ?? 50, below: decodeCursor(Cursor) });
    return {
      status: 200,
      body: { Entries: page.entries, Next: page.next === null ? null : encodeCursor(page.next) },
      headers: { 'Cache-Control': 'no-store' },
    };
  });
}
