// How the console writes a recorded change ({ Member: { From, To } }, as the booking history and the audit log answer
// it) in one line of words: "Participants: 1 → 2; Price: €45.00 → €50.00; Time: 15:00 → 09:00". Member names are
// spelled out, a price is money in its currency, an empty list or value is a dash, and a boolean is yes or no.
import { formatMoney } from '../api/money.js';
import { fieldInWords } from './states.js';

const isMoney = (value: object): value is { Amount: number; Currency: string } =>
  typeof (value as { Amount?: unknown }).Amount === 'number' && typeof (value as { Currency?: unknown }).Currency === 'string';

function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.map(shown).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'object') {
    if (isMoney(value)) return formatMoney(value.Amount, value.Currency);
    return Object.entries(value as Record<string, unknown>)
      .map(([name, member]) => `${fieldInWords(name)} ${shown(member)}`)
      .join(', ');
  }
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/** Each member's change; for a thing just created (`created`), each member's value alone. */
export function changeSummary(changes: Readonly<Record<string, { From?: unknown; To?: unknown }>> | null | undefined, created = false): string {
  if (!changes) return '';
  return Object.entries(changes)
    .map(([name, change]) => (created ? `${fieldInWords(name)}: ${shown(change.To)}` : `${fieldInWords(name)}: ${shown(change.From)} → ${shown(change.To)}`))
    .join('; ');
}
