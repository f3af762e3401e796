// A price set by hand at the desk (issue 39): the total charged for a party when it is not the list price (the unit
// price as sold times the party). A discount (below the list price) or an override (above it) needs a reason and the
// role's grant; the list price itself is no override at all, so nothing is recorded for it.
import { operatorHasGrant, type OperatorRole, type PriceOverride } from '@backbone/contracts';
import { DomainError, ValidationError } from './errors.js';

/** What a booking is charged beyond its list price: the total and why, or null members for the list price. */
export interface ChargedPrice {
  overrideMinor: number | null;
  reason: string | null;
}

export const LIST_PRICE: ChargedPrice = { overrideMinor: null, reason: null };

/** An amount in minor units as money in words ("EUR 45.00"), for messages. */
export function moneyInWords(minor: number, currency: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return `${currency} ${(minor / 10 ** digits).toFixed(digits)}`;
}

/**
 * Decides a price override asked for a booking of `list` (its unit price, currency and party after the change), by a
 * user of `role`. The currency must be the booking's, a reason given (trimmed, not blank) whenever the total differs,
 * and the role granted a discount (below the list price) or an override (above it): 422 naming the member, or 403.
 */
export function decidePriceOverride(
  list: { unitPriceMinor: number; currency: string; participants: number },
  request: PriceOverride,
  role: OperatorRole,
  member = 'PriceOverride',
): ChargedPrice {
  if (request.Currency !== list.currency) {
    throw new ValidationError([{ field: `${member}.Currency`, message: `The price must be in the booking's currency, ${list.currency}.` }]);
  }
  const listTotal = list.unitPriceMinor * list.participants;
  if (request.TotalMinor === listTotal) return LIST_PRICE;
  const reason = request.Reason?.trim() ?? '';
  if (reason === '') {
    throw new ValidationError([
      { field: `${member}.Reason`, message: `Say why the price differs from the list price (${moneyInWords(listTotal, list.currency)}).` },
    ]);
  }
  const grant = request.TotalMinor < listTotal ? 'discount' : 'overridePrice';
  if (!operatorHasGrant(role, grant)) {
    throw new DomainError(
      'forbidden',
      grant === 'discount'
        ? 'Your role may not give a discount.'
        : `Only an owner may charge more than the list price (${moneyInWords(listTotal, list.currency)}).`,
    );
  }
  return { overrideMinor: request.TotalMinor, reason };
}
