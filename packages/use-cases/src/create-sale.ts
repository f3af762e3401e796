// A booking the operator makes (the console's point of sale, the admin CLI, the demo seed): the point of sale's by
// default or the online shop's, never a partner's (partners book through the partner API with their own key). Booked
// through createBooking, the same atomic reservation as every channel; a sale is an order the operator's own checkout
// completed, so its order.completed event commits with it.
import { BOOKING_CHANNELS, operatorHasGrant, type Booking, type BookingChannel, type OperatorRole, type SaleRequest } from '@backbone/contracts';
import { findBookingTimeslotLoad, recordAudit, recordPaymentMethod, recordSalePrice, type Db } from '@backbone/db';
import { decidePriceOverride, DomainError, ValidationError, type OperatorActor } from '@backbone/domain';
import { auditBookingPrice } from './booking-price-audit.js';
import { createBooking, type BookingDeps } from './create-booking.js';
import type { IdempotencyRequest, Replayable } from './idempotency.js';
import { recordOrderCompleted } from './order-completed.js';

const OPERATOR_CHANNELS: readonly BookingChannel[] = BOOKING_CHANNELS.filter((channel) => channel !== 'ota');

export function createSale(
  deps: BookingDeps,
  request: {
    accountId: string;
    /** The admin key that made it; null for a console session, the admin CLI and the demo seed. */
    apiKeyId: string | null;
    /** The console user who sold it; null otherwise. */
    userId: string | null;
    /** The seller's role (its grants decide a price set by hand); the admin CLI, the seed and admin keys act as owners. */
    role?: OperatorRole;
    /** pos unless given. */
    channel?: string;
    sale: SaleRequest;
  },
  idempotency: IdempotencyRequest | null = null,
): Promise<Replayable<Booking>> {
  const channel = request.channel ?? 'pos';
  if (!(OPERATOR_CHANNELS as readonly string[]).includes(channel)) {
    throw new ValidationError([{ field: 'channel', message: `channel must be ${OPERATOR_CHANNELS.join(' or ')} (partners book through the partner API).` }]);
  }
  const sale = request.sale;
  const role = request.role ?? 'owner';
  // Asked for before anything is reserved: a role without the grant is refused even when the party would fit.
  if (sale.Overbook === true && !operatorHasGrant(role, 'overbook')) {
    throw new DomainError('forbidden', "Only an owner may sell past a timeslot's capacity.");
  }
  const actor: OperatorActor = { kind: 'operator', userId: request.userId, apiKeyId: request.apiKeyId };
  return createBooking(
    deps,
    {
      accountId: request.accountId,
      apiKeyId: request.apiKeyId,
      partnerId: null,
      createdByUserId: request.userId,
      hold: null,
      channel: channel as BookingChannel,
      activityId: sale.ActivityID,
      date: sale.Date,
      time: sale.Time,
      participants: sale.Participants,
      customer: sale.Customer,
      paymentReference: sale.PaymentReference ?? null,
      answers: sale.Answers,
      overbook: sale.Overbook === true,
      byOperator: true,
    },
    idempotency,
    {
      withinBooking: async (tx, booking) => {
        // Recorded beside the reservation, in its transaction: the reservation's statement stays the one every channel
        // shares. A price refused (422, 403) rolls the reservation back with it.
        if (sale.PaymentMethod !== undefined) await recordPaymentMethod(tx, request.accountId, booking.Reference, sale.PaymentMethod);
        await recordOrderCompleted(tx, { accountId: request.accountId, reference: booking.Reference, channel: booking.Channel });
        if (sale.Overbook === true) await auditOverbooking(tx, request.accountId, actor, booking);
        if (sale.PriceOverride === undefined) return booking;
        const list = { unitPriceMinor: booking.Price.UnitAmount, currency: booking.Price.Currency, participants: booking.Participants };
        const { overrideMinor, reason } = decidePriceOverride(list, sale.PriceOverride, role);
        if (overrideMinor === null || reason === null) return booking;
        const listTotalMinor = booking.Price.TotalAmount;
        await recordSalePrice(tx, request.accountId, booking.Reference, { overrideMinor, reason, listTotalMinor, currency: list.currency }, actor);
        await auditBookingPrice(tx, request.accountId, actor, booking, {
          from: { totalMinor: listTotalMinor, reason: null },
          to: { totalMinor: overrideMinor, reason },
          currency: list.currency,
        });
        return { ...booking, Price: { ...booking.Price, TotalAmount: overrideMinor } };
      },
    },
  );
}

/**
 * An overbooking sold goes to the audit log: who, the booking, its timeslot, and how many of its places are past the
 * capacity. Read in the sale's transaction, which holds the timeslot's row lock since the reservation: no other sale
 * moved it meanwhile. A party that fitted after all records nothing.
 */
async function auditOverbooking(tx: Db, accountId: string, actor: OperatorActor, booking: Booking): Promise<void> {
  const load = await findBookingTimeslotLoad(tx, accountId, booking.Reference);
  if (!load) throw new Error(`booking ${booking.Reference} sold without its timeslot`);
  const over = Math.min(booking.Participants, Math.max(0, load.booked - load.capacity));
  if (over === 0) return;
  const name = [booking.Customer.FirstName, booking.Customer.LastName].filter(Boolean).join(' ');
  await recordAudit(tx, accountId, {
    actor,
    action: 'booking.overbooked',
    subject: { type: 'booking', id: booking.Reference, label: name ? `${booking.Reference}, ${name}` : booking.Reference },
    changes: {
      Timeslot: { From: null, To: load.label },
      Participants: { From: null, To: booking.Participants },
      OverCapacity: { From: null, To: over },
      Booked: { From: null, To: `${load.booked} of ${load.capacity}` },
    },
  });
}
