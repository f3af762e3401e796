// GET /api/v2/operator/mail/settings (owners): the account's e-mail settings, templates and the built-in ones.
import { getMailSettingsOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { getMailSettings } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountGetMailSettings(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, getMailSettingsOperation, async ({ auth }) => ({
    status: 200,
    body: await getMailSettings(deps, auth.accountId),
    headers: { 'Cache-Control': 'no-store' },
  }));
}
