// POST /api/v2/ota/partner/webhooks: register a webhook endpoint for the caller's partner; the secret is shown once.
import { createWebhookEndpointOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { createWebhookEndpoint } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../deps.js';
import { partnerOf } from './partner-of.js';

export function mountCreateWebhookEndpoint(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, createWebhookEndpointOperation, async ({ body, auth }) => ({
    status: 201,
    body: await createWebhookEndpoint(deps, partnerOf(auth), body),
  }));
}
