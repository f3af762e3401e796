// PATCH /api/v2/operator/mail/settings (owners): the members sent change; templates must render.
import { updateMailSettingsOperation } from '@backbone/contracts';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { updateMailSettings } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountUpdateMailSettings(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, updateMailSettingsOperation, async ({ body, auth }) => ({
    status: 200,
    body: await updateMailSettings(deps, auth.accountId, body, operatorActorOf(auth)),
  }));
}
