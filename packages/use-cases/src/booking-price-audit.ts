// A price set by hand at the desk goes to the audit log (who, the booking, from what to what, why), in the transaction
// of the sale or change that sets it: the owner reviews the discounts given from one place.
import { recordAudit, type Db } from '@backbone/db';
import type { OperatorActor } from '@backbone/domain';

export interface AuditedPrice {
  totalMinor: number;
  /** Why it was set by hand; null for the list price. */
  reason: string | null;
}

export async function auditBookingPrice(
  tx: Db,
  accountId: string,
  actor: OperatorActor,
  booking: { Reference: string; Customer: { FirstName?: string; LastName?: string } },
  change: { from: AuditedPrice; to: AuditedPrice; currency: string },
): Promise<void> {
  const name = [booking.Customer.FirstName, booking.Customer.LastName].filter(Boolean).join(' ');
  const money = (totalMinor: number) => ({ Amount: totalMinor, Currency: change.currency });
  await recordAudit(tx, accountId, {
    actor,
    action: 'booking.price_changed',
    subject: { type: 'booking', id: booking.Reference, label: name ? `${booking.Reference}, ${name}` : booking.Reference },
    changes: {
      Price: { From: money(change.from.totalMinor), To: money(change.to.totalMinor) },
      ...(change.from.reason !== change.to.reason ? { Reason: { From: change.from.reason, To: change.to.reason } } : {}),
    },
  });
}
