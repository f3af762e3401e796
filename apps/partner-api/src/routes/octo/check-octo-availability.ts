// POST /octo/availability: a product's availabilities by date range, one date, or ids.
import { checkOctoAvailabilityOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { checkOctoAvailability } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../../deps.js';
import { octoViewOf } from '../../octo/octo-http.js';

export function mountCheckOctoAvailability(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, checkOctoAvailabilityOperation, async ({ body, auth, req, res }) => ({
    status: 200,
    body: await checkOctoAvailability(deps, auth.accountId, body, octoViewOf(req, res), auth.test),
  }));
}
