// The operator's date ranges (the availability view): both ends counted, To not before From, bounded in length.
import { ValidationError } from './errors.js';
import { daysBetween } from './time-zones.js';

export function checkOperatorDateRange(from: string, to: string, maxDays: number): void {
  const span = daysBetween(from, to);
  if (span < 0) throw new ValidationError([{ field: 'To', message: 'must be on or after From.' }]);
  if (span + 1 > maxDays) throw new ValidationError([{ field: 'To', message: `must be at most ${maxDays} days after From, both counted.` }]);
}
