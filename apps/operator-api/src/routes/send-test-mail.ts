// POST /api/v2/operator/mail/test (owners): a template rendered with sample values, queued for the mail worker.
import { sendTestMailOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { sendTestMail } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountSendTestMail(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, sendTestMailOperation, async ({ body, auth }) => ({ status: 201, body: await sendTestMail(deps, auth.accountId, body) }));
}
