// PATCH /api/v2/operator/partners/:PartnerID/customer-emails (owners): switch a partner's customers' e-mails on or off.
import { setPartnerCustomerEmailsOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { setPartnerCustomerEmails } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountSetPartnerCustomerEmails(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, setPartnerCustomerEmailsOperation, async ({ params, body, auth }) => {
    await setPartnerCustomerEmails(deps, auth.accountId, params.PartnerID.toLowerCase(), body.Enabled);
    return { status: 204, body: undefined };
  });
}
