// The sales report: the range checked, the database's few groups rolled up per currency by channel, partner and
// activity, largest revenue first (then by name), cancelled bookings apart.
import type { SalesReport, SalesReportDate } from '@backbone/contracts';
import { listSalesGroups, listSalesGroupsBookedOn, type Pool, type SalesGroup } from '@backbone/db';
import { checkOperatorDateRange } from '@backbone/domain';

const MAX_REPORT_DAYS = 366;

type Figures = { Bookings: number; Participants: number; RevenueMinor: number };
const zero = (): Figures => ({ Bookings: 0, Participants: 0, RevenueMinor: 0 });

function add(into: Figures, group: SalesGroup): void {
  into.Bookings += group.bookings;
  into.Participants += group.participants;
  into.RevenueMinor += group.revenueMinor;
}

function rolledUp<K extends string, T extends Figures>(
  groups: SalesGroup[],
  key: (g: SalesGroup) => K | null,
  make: (g: SalesGroup) => T,
  name: (t: T) => string,
): T[] {
  const by = new Map<K, T>();
  for (const group of groups) {
    const k = key(group);
    if (k === null) continue;
    let entry = by.get(k);
    if (!entry) by.set(k, (entry = make(group)));
    add(entry, group);
  }
  return [...by.values()].sort((a, b) => b.RevenueMinor - a.RevenueMinor || name(a).localeCompare(name(b)));
}

export async function getOperatorSalesReport(
  deps: { pool: Pool },
  request: { accountId: string; from: string; to: string; by?: SalesReportDate },
): Promise<SalesReport> {
  checkOperatorDateRange(request.from, request.to, MAX_REPORT_DAYS);
  const by = request.by ?? 'takes_place';
  const groups = await (by === 'booked' ? listSalesGroupsBookedOn : listSalesGroups)(deps.pool, request.accountId, request.from, request.to);
  const currencies = [...new Set(groups.map((g) => g.currency))].sort();
  return {
    From: request.from,
    To: request.to,
    By: by,
    Currencies: currencies.map((currency) => {
      const all = groups.filter((g) => g.currency === currency);
      const sold = all.filter((g) => !g.cancelled);
      const total = zero();
      for (const group of sold) add(total, group);
      const cancelled = zero();
      for (const group of all.filter((g) => g.cancelled)) add(cancelled, group);
      return {
        Currency: currency,
        ...total,
        ByChannel: rolledUp(
          sold,
          (g) => g.channel,
          (g) => ({ Channel: g.channel, ...zero() }),
          (t) => t.Channel,
        ),
        ByPartner: rolledUp(
          sold,
          (g) => g.partnerId,
          (g) => ({ PartnerID: g.partnerId!, PartnerName: g.partnerName ?? '', ...zero() }),
          (t) => t.PartnerName,
        ),
        ByActivity: rolledUp(
          sold,
          (g) => g.activityId,
          (g) => ({ ActivityID: g.activityId, ActivityName: g.activityName, ...zero() }),
          (t) => t.ActivityName,
        ),
        ByPaymentMethod: rolledUp(
          sold,
          (g) => g.paymentMethod,
          (g) => ({ PaymentMethod: g.paymentMethod!, ...zero() }),
          (t) => t.PaymentMethod,
        ),
        Cancelled: cancelled,
      };
    }),
  };
}
