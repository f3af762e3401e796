// The validator every request and queued event goes through: which instants it takes (isInstant), the messages it
// gives (each naming the member it is about, or the schema's own x-message), and how text in a query or a path
// becomes a number only when it is written in plain decimals.
import { describe, expect, it } from 'vitest';
import { bookingRequestSchema, compileValidator, isInstant, syncBookingsQuerySchema } from '@backbone/contracts';

describe('isInstant', () => {
  it('takes RFC 3339 instants with Z or an offset, and fractions of any length', () => {
    for (const text of ['2026-06-10T09:00:00Z', '2026-06-10T09:00:00+01:00', '2026-06-10T09:00:00-05:30', '2026-06-10T09:00:00.123456789+05:30']) {
      expect(isInstant(text), text).toBe(true);
    }
  });

  it('refuses what JavaScript cannot read: a leap second, an offset without minutes, no offset at all', () => {
    expect(isInstant('2016-12-31T23:59:60Z')).toBe(false);
    expect(isInstant('2026-06-10T09:00:00+01')).toBe(false);
    expect(isInstant('2026-06-10T09:00:00')).toBe(false);
  });

  it('refuses a date that is not on the calendar, and times and offsets out of range', () => {
    expect(isInstant('2026-02-29T00:00:00Z')).toBe(false);
    expect(isInstant('2024-02-29T00:00:00Z')).toBe(true);
    expect(isInstant('0000-06-10T00:00:00Z')).toBe(false);
    expect(isInstant('2026-06-10T24:00:00Z')).toBe(false);
    expect(isInstant('2026-06-10T09:00:00+24:00')).toBe(false);
  });

  it('takes 0001-01-01T00:00Z and 9999-12-31T23:59:59.999Z, and refuses an offset that puts the instant outside them', () => {
    expect(isInstant('0001-01-01T00:00:00Z')).toBe(true);
    expect(isInstant('9999-12-31T23:59:59.999Z')).toBe(true);
    // Local 00:30 at +01:00 is 23:30 on 31 December of year 0 in UTC.
    expect(isInstant('0001-01-01T00:30:00+01:00')).toBe(false);
    expect(isInstant('0001-01-01T00:00:00-01:00')).toBe(true);
    // Local 23:59:59 at -01:00 is in year 10000 in UTC.
    expect(isInstant('9999-12-31T23:59:59-01:00')).toBe(false);
    expect(isInstant('9999-12-31T23:30:00+01:00')).toBe(true);
  });
});

describe('compileValidator: bodies', () => {
  const validate = compileValidator(bookingRequestSchema, 'body');
  const booking = {
    ActivityID: '00000000-0000-4000-8000-0000000000bb',
    Date: '2026-06-10',
    Time: '10:00',
    Participants: 2,
    Customer: { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com' },
  };

  it('answers no errors for a valid body', () => {
    expect(validate(booking)).toEqual([]);
  });

  it('names every missing member, including one a condition requires (no Hold: the Customer)', () => {
    expect(validate({})).toEqual([
      { field: 'Customer', message: 'Customer is required.' },
      { field: 'ActivityID', message: 'ActivityID is required.' },
      { field: 'Date', message: 'Date is required.' },
      { field: 'Time', message: 'Time is required.' },
      { field: 'Participants', message: 'Participants is required.' },
    ]);
  });

  it('calls a body that is not an object "The request"', () => {
    for (const body of [null, [], 'text', 5]) {
      expect(validate(body)).toEqual([{ field: '', message: 'The request must be of type object.' }]);
    }
  });

  it('checks types as sent: text is not a number, nor is Infinity or a fraction an integer', () => {
    for (const Participants of ['2', 1.5, Infinity, Number.NaN, true]) {
      expect(validate({ ...booking, Participants })).toEqual([{ field: 'Participants', message: 'Participants must be of type integer.' }]);
    }
  });

  it("uses the member's x-message for its format, pattern or type, and names unknown members", () => {
    expect(validate({ ...booking, ActivityID: 'nope', Date: '2026-02-30', Time: '24:00', Extra: 1 })).toEqual([
      { field: 'Extra', message: 'Extra is not a known member.' },
      { field: 'ActivityID', message: 'ActivityID must be a UUID in canonical 8-4-4-4-12 hex form.' },
      { field: 'Date', message: 'Date must be a calendar date in the form YYYY-MM-DD, from 0001-01-01 to 9999-12-31.' },
      { field: 'Time', message: 'Time must be a clock time in the form HH:MM (00:00 to 23:59).' },
    ]);
  });

  it('names nested members with dots and array items with their index, one message per member', () => {
    expect(validate({ ...booking, Customer: { FirstName: '', Email: 'not an address' } })).toEqual([
      { field: 'Customer.LastName', message: 'Customer.LastName is required.' },
      { field: 'Customer.FirstName', message: 'Customer.FirstName must not be empty.' },
      { field: 'Customer.Email', message: 'Customer.Email must be a valid email address.' },
    ]);
    expect(
      validate({
        ...booking,
        Answers: [{ QuestionID: 1 }, { QuestionID: 2, Value: {} }, { QuestionID: 3, Value: 'x', FileID: '00000000-0000-4000-8000-0000000000bb' }],
      }),
    ).toEqual([
      { field: 'Answers[0].Value', message: 'Answers[0].Value is required.' },
      {
        field: 'Answers[1].Value',
        message: 'Answers[1].Value must be a string, number, boolean or array of strings, without NUL characters or unpaired surrogates.',
      },
      { field: 'Answers[2]', message: 'Answers[2] must be an object with QuestionID and either Value or FileID (not both).' },
    ]);
  });

  it('words bounds and lengths', () => {
    expect(validate({ ...booking, Participants: 0 })).toEqual([{ field: 'Participants', message: 'Participants must be at least 1.' }]);
    expect(validate({ ...booking, Participants: 1001 })).toEqual([{ field: 'Participants', message: 'Participants must be at most 1000.' }]);
    expect(validate({ ...booking, Customer: { ...booking.Customer, Phone: '12' } })).toEqual([
      { field: 'Customer.Phone', message: 'Customer.Phone must be at least 5 characters long.' },
    ]);
    const validateSmall = compileValidator(
      { type: 'object', minProperties: 1, properties: { Kind: { enum: ['a', 'b'] }, Tags: { type: 'array', maxItems: 1 } } },
      'body',
    );
    expect(validateSmall({})).toEqual([{ field: '', message: 'The request must have at least 1 member.' }]);
    expect(validateSmall({ Kind: 'c', Tags: [1, 2] })).toEqual([
      { field: 'Kind', message: 'Kind must be one of: a, b.' },
      { field: 'Tags', message: 'Tags must have at most 1 items.' },
    ]);
  });

  it('says a plain UUID pattern without an x-message is a UUID', () => {
    const validateId = compileValidator(
      { type: 'object', properties: { ID: { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' } } },
      'body',
    );
    expect(validateId({ ID: 'x' })).toEqual([{ field: 'ID', message: 'ID must be a UUID.' }]);
  });
});

describe('compileValidator: queries and path parameters', () => {
  const validate = compileValidator(syncBookingsQuerySchema, 'query');

  it('reads plain decimal text as a number, in the object it checks (what the handler then gets)', () => {
    const query: Record<string, unknown> = { Limit: '10', UpdatedSince: '2027-05-01T09:00:00Z' };
    expect(validate(query)).toEqual([]);
    expect(query.Limit).toBe(10);
  });

  it('refuses text JavaScript would read as a number but is not written in plain decimals', () => {
    for (const Limit of ['Infinity', '1e400', '1e2', '0x10', ' 5', '5 ', '+5', '05', '5.0', '', '99999999999999999']) {
      expect(validate({ Limit }), JSON.stringify(Limit)).toEqual([{ field: 'Limit', message: 'Limit must be of type integer.' }]);
    }
  });

  it('reads a decimal number with its fraction for a number member, and refuses exponents', () => {
    const validateRatio = compileValidator({ type: 'object', properties: { Ratio: { type: 'number' } } }, 'query');
    const query: Record<string, unknown> = { Ratio: '-0.25' };
    expect(validateRatio(query)).toEqual([]);
    expect(query.Ratio).toBe(-0.25);
    expect(validateRatio({ Ratio: '2.5e3' })).toEqual([{ field: 'Ratio', message: 'Ratio must be of type number.' }]);
  });

  it('then checks the bounds of what it read, and every other member with its x-message', () => {
    expect(validate({ Limit: '0', UpdatedSince: '2016-12-31T23:59:60Z', Cursor: '!' })).toEqual([
      { field: 'UpdatedSince', message: 'UpdatedSince must be an ISO 8601 instant with its offset, such as 2027-05-01T09:00:00Z.' },
      { field: 'Limit', message: 'Limit must be at least 1.' },
      { field: 'Cursor', message: 'Cursor must be a Next or Resume value of an earlier answer.' },
    ]);
  });

  it('coerces path parameters the same way', () => {
    const validateParams = compileValidator({ type: 'object', required: ['ID'], properties: { ID: { type: 'integer', minimum: 1 } } }, 'params');
    const params: Record<string, unknown> = { ID: '42' };
    expect(validateParams(params)).toEqual([]);
    expect(params.ID).toBe(42);
    expect(validateParams({ ID: '0x2a' })).toEqual([{ field: 'ID', message: 'ID must be of type integer.' }]);
  });

  it('checks one schema as a body and as a query each by its own rules, whichever came first', () => {
    const schema = { type: 'object', properties: { Limit: { type: 'integer' } } };
    expect(compileValidator(schema, 'body')({ Limit: '5' })).toEqual([{ field: 'Limit', message: 'Limit must be of type integer.' }]);
    expect(compileValidator(schema, 'query')({ Limit: '5' })).toEqual([]);

    const other = { type: 'object', properties: { Limit: { type: 'integer' } } };
    expect(compileValidator(other, 'query')({ Limit: '5' })).toEqual([]);
    expect(compileValidator(other, 'body')({ Limit: '5' })).toEqual([{ field: 'Limit', message: 'Limit must be of type integer.' }]);
  });
});
