// POST /api/v2/operator/mail/preview (owners): a template rendered with sample values.
import { previewMailOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { previewMail } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountPreviewMail(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, previewMailOperation, async ({ body, auth }) => ({ status: 200, body: await previewMail(deps, auth.accountId, body) }));
}
