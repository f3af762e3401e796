// The one date rule of every API (isCalendarDate: 0001-01-01 to 9999-12-31, real calendar dates only), the instants
// that bound it, and the free text PostgreSQL can store.
import { describe, expect, it } from 'vitest';
import { compileValidator, EARLIEST_INSTANT_MS, isCalendarDate, LATEST_INSTANT_MS, textSchema } from '@backbone/contracts';

describe('isCalendarDate', () => {
  it('takes the first and last dates PostgreSQL and JavaScript both hold, and refuses the years around them', () => {
    expect(isCalendarDate('0001-01-01')).toBe(true);
    expect(isCalendarDate('9999-12-31')).toBe(true);
    expect(isCalendarDate('0000-01-01')).toBe(false);
    expect(isCalendarDate('0000-12-31')).toBe(false);
    expect(isCalendarDate('10000-01-01')).toBe(false);
  });

  it('takes 29 February in leap years only (every 4th, not every 100th, yet every 400th)', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2000-02-29')).toBe(true);
    expect(isCalendarDate('0004-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('1900-02-29')).toBe(false);
    expect(isCalendarDate('2100-02-29')).toBe(false);
    expect(isCalendarDate('2024-02-30')).toBe(false);
  });

  it("knows each month's length and refuses month and day 00 and month 13", () => {
    const lastDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    lastDays.forEach((last, index) => {
      const month = String(index + 1).padStart(2, '0');
      expect(isCalendarDate(`2026-${month}-${last}`), `2026-${month}-${last}`).toBe(true);
      expect(isCalendarDate(`2026-${month}-${last + 1}`), `2026-${month}-${last + 1}`).toBe(false);
      expect(isCalendarDate(`2026-${month}-00`)).toBe(false);
    });
    expect(isCalendarDate('2026-00-10')).toBe(false);
    expect(isCalendarDate('2026-13-01')).toBe(false);
  });

  it('takes only YYYY-MM-DD written out, nothing around it', () => {
    for (const text of [
      '2026-6-1',
      '2026-06-1',
      '26-06-01',
      '2026/06/01',
      ' 2026-06-01',
      '2026-06-01 ',
      '2026-06-01\n',
      '2026-06-01T00:00',
      '+2026-06-01',
      '',
    ]) {
      expect(isCalendarDate(text), JSON.stringify(text)).toBe(false);
    }
    // Digits other than ASCII's are not digits of a date.
    expect(isCalendarDate('２０２６-06-01')).toBe(false);
  });
});

describe('the instants of the calendar dates', () => {
  it('are the first millisecond of 0001-01-01 and the last of 9999-12-31, in UTC', () => {
    expect(new Date(EARLIEST_INSTANT_MS).toISOString()).toBe('0001-01-01T00:00:00.000Z');
    expect(new Date(LATEST_INSTANT_MS).toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });
});

describe('textSchema', () => {
  const validate = compileValidator({ type: 'object', properties: { Note: textSchema(10) } }, 'body');

  it('takes text up to its length, an emoji (a surrogate pair) included', () => {
    expect(validate({ Note: 'olá 👋' })).toEqual([]);
    expect(validate({ Note: 'a'.repeat(10) })).toEqual([]);
    expect(validate({ Note: 'a'.repeat(11) })).toEqual([{ field: 'Note', message: 'Note must be at most 10 characters long.' }]);
  });

  it('refuses NUL and an unpaired surrogate, which PostgreSQL cannot store', () => {
    expect(validate({ Note: 'a\u0000b' })).toEqual([{ field: 'Note', message: 'Note has an invalid format.' }]);
    expect(validate({ Note: 'a\ud800b' })).toEqual([{ field: 'Note', message: 'Note has an invalid format.' }]);
    expect(validate({ Note: '\udc00' })).toEqual([{ field: 'Note', message: 'Note has an invalid format.' }]);
  });
});
