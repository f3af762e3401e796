// The price at the desk, as the sale form and the booking panel's Edit both ask for it: the list price (the unit price
// times the party), a discount, or another total, with the reason the API requires whenever the price differs. What a
// role may charge is the permission table's grants (staff discount, owners also charge more); the API decides anyway.
import type { OperatorGrant, PriceOverride } from '@backbone/contracts/browser';
import { formatMoney, minorDigits, parseMoney } from '../api/money.js';

export interface PriceDraft {
  mode: 'list' | 'discount' | 'total';
  /** In major units, as typed. */
  amount: string;
  reason: string;
}

export const LIST_PRICE_DRAFT: PriceDraft = { mode: 'list', amount: '', reason: '' };

/** The draft of a booking's price as it stands: its total set by hand and reason, or the list price. */
export function priceDraftOf(price: { TotalMinor: number; Currency: string; Reason: string | null }): PriceDraft {
  if (price.Reason === null) return LIST_PRICE_DRAFT;
  return { mode: 'total', amount: (price.TotalMinor / 10 ** minorDigits(price.Currency)).toFixed(minorDigits(price.Currency)), reason: price.Reason };
}

export interface PriceAsked {
  /** The total to charge, when the draft says one. */
  totalMinor: number | null;
  /** What to send: undefined for the list price. */
  override?: PriceOverride;
  /** Why the draft cannot be sent, in words. */
  error: string | null;
}

export function priceAsked(draft: PriceDraft, listTotalMinor: number, currency: string, has: (grant: OperatorGrant) => boolean): PriceAsked {
  if (draft.mode === 'list') return { totalMinor: listTotalMinor, error: null };
  const amount = parseMoney(draft.amount, currency);
  if (amount === null) return { totalMinor: null, error: draft.mode === 'discount' ? 'Type the discount as an amount.' : 'Type the total as an amount.' };
  if (draft.mode === 'discount' && amount > listTotalMinor) return { totalMinor: null, error: 'The discount is more than the price.' };
  const totalMinor = draft.mode === 'discount' ? listTotalMinor - amount : amount;
  if (totalMinor === listTotalMinor) return { totalMinor, error: null };
  if (totalMinor > listTotalMinor && !has('overridePrice')) return { totalMinor, error: 'Only an owner may charge more than the list price.' };
  if (totalMinor < listTotalMinor && !has('discount')) return { totalMinor, error: 'Your role may not give a discount.' };
  const reason = draft.reason.trim();
  const override = { TotalMinor: totalMinor, Currency: currency, ...(reason ? { Reason: reason } : {}) };
  return { totalMinor, override, error: reason ? null : 'Say why the price differs from the list price.' };
}

export function PriceInputs({
  draft,
  onChange,
  listTotalMinor,
  currency,
  asked,
}: {
  draft: PriceDraft;
  onChange: (draft: PriceDraft) => void;
  listTotalMinor: number;
  currency: string;
  asked: PriceAsked;
}) {
  const set = (member: keyof PriceDraft) => (event: { target: { value: string } }) => onChange({ ...draft, [member]: event.target.value });
  return (
    <fieldset className="price-inputs">
      <legend>Price</legend>
      <label>
        Charge
        <select name="PriceMode" value={draft.mode} onChange={set('mode')}>
          <option value="list">List price ({formatMoney(listTotalMinor, currency)})</option>
          <option value="discount">A discount</option>
          <option value="total">Another total</option>
        </select>
      </label>
      {draft.mode !== 'list' && (
        <>
          <label>
            {draft.mode === 'discount' ? `Discount (${currency})` : `Total (${currency})`}
            <input name="PriceAmount" inputMode="decimal" required value={draft.amount} onChange={set('amount')} autoComplete="off" />
          </label>
          <label className="grow">
            Reason
            <input name="PriceReason" required maxLength={200} value={draft.reason} onChange={set('reason')} autoComplete="off" />
          </label>
        </>
      )}
      {draft.mode !== 'list' && (
        <p className={asked.error ? 'field-error' : 'hint'} role={asked.error ? 'alert' : 'status'} data-charged-minor={asked.totalMinor ?? ''}>
          {asked.error ??
            (asked.totalMinor !== null ? `Charged ${formatMoney(asked.totalMinor, currency)} instead of ${formatMoney(listTotalMinor, currency)}.` : '')}
        </p>
      )}
    </fieldset>
  );
}
