// PATCH /api/v2/operator/partners/:PartnerID/customer-emails (owners): switch a partner's customers' e-mails on or off.
import { setPartnerCustomerEmailsOperation } from '@backbone/contracts';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { setPartnerCustomerEmails } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountSetPartnerCustomerEmails(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, setPartnerCustomerEmailsOperation, async ({ params, body, auth }) => {
    await setPartnerCustomerEmails(deps, {
      accountId: auth.accountId,
      partnerId: params.PartnerID.toLowerCase(),
      enabled: body.Enabled,
      actor: operatorActorOf(auth),
    });
    return { status: 204, body: undefined };
  });
}
