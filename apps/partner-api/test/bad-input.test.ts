// Malformed requests across the partner endpoints: each gets a 4xx RFC 7807 problem (never a 500) and the database
// is left exactly as it was. Injection-looking text in well-formed places is just data.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestQuestion, createTestTimeslot, futureDate, request, sendRaw } from '@backbone/testkit';
import { bookingBody, createOperator, databaseFingerprint, PROBLEM_BASE, usePartnerApi, type Operator } from './support.js';

// Short timeouts, so that slow clients are shown to be cut off in a test's time; the request timeout far from the
// headers timeout, so that which of them closed a connection needs no tight clock.
const timeouts = { headersTimeoutMs: 1000, requestTimeoutMs: 10_000, connectionsCheckIntervalMs: 100 };
const { db, server } = usePartnerApi({ bodyLimit: '64kb', timeouts });
const day = futureDate(9);
const BOOKING = '/api/v2/ota/partner/booking';
let op: Operator;

interface Case {
  name: string;
  method?: 'GET' | 'POST' | 'DELETE';
  path: () => string;
  body?: () => unknown;
  rawBody?: string | (() => Uint8Array);
  headers?: Record<string, string>;
  /** Bytes sent as they are on a connection of their own (for what fetch cannot send); `end` closes the client's side after them. */
  raw?: { bytes: () => string; end?: boolean };
  status: number;
}

const id = () => op.activity.activityId;
const valid = () => bookingBody(op.activity, { date: day, time: '09:00' });
const withBody = (patch: Record<string, unknown>) => () => ({ ...valid(), ...patch });
const withCustomer = (patch: Record<string, unknown>) => () => ({ ...valid(), Customer: { ...valid().Customer, ...patch } });
const without = (member: string) => () => Object.fromEntries(Object.entries(valid()).filter(([k]) => k !== member));
const dates = (query: string) => () => `/api/v2/ota/partner/availability/${id()}/dates${query}`;
const slots = (query: string) => () => `/api/v2/ota/partner/availability/${id()}/timeslots${query}`;
const post = (name: string, body: () => unknown, status = 422): Case => ({ name, method: 'POST', path: () => BOOKING, body, status });
const rawBooking = (contentLength: number, body: string) =>
  `POST ${BOOKING} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${op.ota}\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n${body}`;
// A valid booking but for the bytes of its customer's first name, which are not UTF-8: 400 malformed-json, not a stored U+FFFD.
const notUtf8 = (name: string, bytes: Buffer): Case => ({
  name,
  method: 'POST',
  path: () => BOOKING,
  rawBody: () => {
    const [before, after] = JSON.stringify(withCustomer({ FirstName: 'MARK' })()).split('MARK') as [string, string];
    return Buffer.concat([Buffer.from(before), bytes, Buffer.from(after)]);
  },
  headers: { 'content-type': 'application/json' },
  status: 400,
});
// The webhook operations act on an endpoint registered in beforeAll, with one failed delivery.
const WEBHOOKS = '/api/v2/ota/partner/webhooks';
const hook = { endpoint: '', delivery: '' };
const register = (name: string, body: unknown, status = 422): Case => ({
  name: `webhooks: register with ${name}`,
  method: 'POST',
  path: () => WEBHOOKS,
  body: () => body,
  status,
});
const deliveries = (name: string, query: string | (() => string)): Case => ({
  name: `webhooks: deliveries with ${name}`,
  path: () => `${WEBHOOKS}/${hook.endpoint}/deliveries${typeof query === 'function' ? query() : query}`,
  status: 422,
});
const replaySince = (name: string, body: unknown): Case => ({
  name: `webhooks: replay with ${name}`,
  method: 'POST',
  path: () => `${WEBHOOKS}/${hook.endpoint}/replay`,
  body: () => body,
  status: 422,
});
const position = (createdAt: string, id: string) => Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
// The lifecycle operations act on a hold and a confirmed booking made in beforeAll.
const refs = { hold: '', confirmed: '' };
const held = () => `${BOOKING}/${refs.hold}`;
const lookUp = (reference: string, status = 400): Case => ({
  name: `look up: Reference ${JSON.stringify(reference)}`,
  path: () => `${BOOKING}/${reference}`,
  status,
});
const confirm = (name: string, body: () => unknown, status = 422): Case => ({
  name: `confirm: ${name}`,
  method: 'POST',
  path: () => `${held()}/confirm`,
  body,
  status,
});
const cancel = (name: string, body: () => unknown, status = 422, path = () => `${BOOKING}/${refs.confirmed}/cancel`): Case => ({
  name: `cancel: ${name}`,
  method: 'POST',
  path,
  body,
  status,
});
const hold = (name: string, value: unknown) => post(`hold: ${name}`, withBody({ Hold: value }));
const sync = (name: string, query: string): Case => ({ name: `sync: ${name}`, path: () => `/api/v2/ota/partner/bookings${query}`, status: 422 });
const raw = (name: string, path: () => string, rawBody: string, contentType: string, status: number): Case => ({
  name,
  method: 'POST',
  path,
  rawBody,
  headers: { 'content-type': contentType },
  status,
});

const cases: Case[] = [
  // products
  { name: 'products: name with a NUL byte', path: () => '/api/v2/ota/partner/products?name=a%00b', status: 422 },
  { name: 'products: empty name', path: () => '/api/v2/ota/partner/products?name=', status: 422 },
  { name: 'products: name of 201 characters', path: () => `/api/v2/ota/partner/products?name=${'a'.repeat(201)}`, status: 422 },
  { name: 'products: name given twice', path: () => '/api/v2/ota/partner/products?name=a&name=b', status: 422 },
  { name: 'products: name with a line break', path: () => '/api/v2/ota/partner/products?name=a%0Ab', status: 422 },
  // resolve-product
  { name: 'resolve: ID huge', path: () => '/api/v2/ota/partner/resolve-product?ID=99999999999999999999999', status: 400 },
  { name: 'resolve: ID in exponent form', path: () => '/api/v2/ota/partner/resolve-product?ID=1e3', status: 400 },
  { name: 'resolve: ID with SQL', path: () => `/api/v2/ota/partner/resolve-product?ID=${encodeURIComponent('1 OR 1=1')}`, status: 400 },
  { name: 'resolve: ID as array syntax', path: () => '/api/v2/ota/partner/resolve-product?ID[]=1', status: 400 },
  { name: 'resolve: Name with a NUL byte', path: () => '/api/v2/ota/partner/resolve-product?Name=%00', status: 400 },
  { name: 'resolve: ID with full-width digits', path: () => `/api/v2/ota/partner/resolve-product?ID=${encodeURIComponent('１２')}`, status: 400 },
  // path parameter
  {
    name: 'dates: ActivityID with SQL',
    path: () => `/api/v2/ota/partner/availability/${encodeURIComponent("1' OR '1'='1")}/dates?StartDate=${day}&EndDate=${day}`,
    status: 400,
  },
  {
    name: 'dates: ActivityID with a script tag',
    path: () => `/api/v2/ota/partner/availability/${encodeURIComponent('<script>alert(1)</script>')}/dates`,
    status: 400,
  },
  { name: 'dates: ActivityID in non-ASCII letters', path: () => `/api/v2/ota/partner/availability/${encodeURIComponent('ü'.repeat(36))}/dates`, status: 400 },
  { name: 'dates: ActivityID with a NUL byte', path: () => `/api/v2/ota/partner/availability/${id()}%00/dates?StartDate=${day}&EndDate=${day}`, status: 400 },
  { name: 'dates: ActivityID badly percent-encoded', path: () => '/api/v2/ota/partner/availability/%E0%A4%A/dates', status: 400 },
  { name: 'questions: ActivityID too long', path: () => `/api/v2/ota/partner/questions/${id()}${id()}`, status: 400 },
  { name: 'core questions: ActivityID of 36 dashes', path: () => `/api/v2/ota/core/questions/${'-'.repeat(36)}`, status: 400 },
  // dates query
  { name: 'dates: 2026-02-30', path: dates('?StartDate=2026-02-30&EndDate=2026-03-01'), status: 422 },
  { name: 'dates: month 13', path: dates('?StartDate=2026-13-01&EndDate=2026-12-31'), status: 422 },
  { name: 'dates: day 00', path: dates('?StartDate=2026-01-00&EndDate=2026-01-02'), status: 422 },
  { name: 'dates: year 0000', path: dates('?StartDate=0000-01-01&EndDate=0000-01-02'), status: 422 },
  { name: 'dates: compact form', path: dates('?StartDate=20260101&EndDate=20260102'), status: 422 },
  { name: 'dates: date-time instead of date', path: dates(`?StartDate=${day}T00:00:00Z&EndDate=${day}`), status: 422 },
  { name: 'dates: leading space', path: dates(`?StartDate=%20${day}&EndDate=${day}`), status: 422 },
  { name: 'dates: six-digit year', path: dates('?StartDate=202026-01-01&EndDate=202026-01-02'), status: 422 },
  { name: 'dates: StartDate given twice', path: dates(`?StartDate=${day}&StartDate=${day}&EndDate=${day}`), status: 422 },
  { name: 'dates: Arabic-Indic digits', path: dates(`?StartDate=${encodeURIComponent('٢٠٢٦-٠١-٠١')}&EndDate=${day}`), status: 422 },
  { name: 'dates: span of ten years', path: dates('?StartDate=2026-01-01&EndDate=2036-01-01'), status: 422 },
  // timeslots query
  { name: 'timeslots: 2026-02-29 (not a leap year)', path: slots('?Date=2026-02-29'), status: 422 },
  { name: 'timeslots: Date with SQL', path: slots(`?Date=${encodeURIComponent("2026-01-01' OR 1=1 --")}`), status: 422 },
  { name: 'timeslots: Date with a script tag', path: slots(`?Date=${encodeURIComponent('<script>')}`), status: 422 },
  { name: 'timeslots: empty Date', path: slots('?Date='), status: 422 },
  // booking: the body as a whole
  { name: 'booking: empty body', method: 'POST', path: () => BOOKING, rawBody: '', headers: { 'content-type': 'application/json' }, status: 422 },
  { name: 'booking: no content type', method: 'POST', path: () => BOOKING, rawBody: '{}', headers: { 'content-type': '' }, status: 415 },
  {
    name: 'booking: text/plain body',
    method: 'POST',
    path: () => BOOKING,
    rawBody: JSON.stringify({ a: 1 }),
    headers: { 'content-type': 'text/plain' },
    status: 415,
  },
  {
    name: 'booking: JSON in an unsupported charset',
    method: 'POST',
    path: () => BOOKING,
    rawBody: '{}',
    headers: { 'content-type': 'application/json; charset=latin1' },
    status: 415,
  },
  {
    name: 'booking: truncated JSON',
    method: 'POST',
    path: () => BOOKING,
    rawBody: '{"ActivityID": "',
    headers: { 'content-type': 'application/json' },
    status: 400,
  },
  notUtf8('booking: invalid UTF-8 in a name (0xff 0xfe)', Buffer.from([0xff, 0xfe])),
  notUtf8('booking: a lone UTF-8 continuation byte', Buffer.from([0x80])),
  notUtf8('booking: an overlong UTF-8 encoding of "/"', Buffer.from([0xc0, 0xaf])),
  notUtf8('booking: a surrogate encoded in UTF-8 (CESU-8)', Buffer.from([0xed, 0xa0, 0x80])),
  notUtf8('booking: UTF-8 cut off inside a character', Buffer.from([0xe2, 0x82])),
  // what Node's HTTP parser refuses before the app sees it
  { name: 'products: headers over the 16 KB limit', path: () => '/api/v2/ota/partner/products', headers: { 'x-padding': 'p'.repeat(20_000) }, status: 431 },
  { name: 'products: a request line over the 16 KB limit', path: () => `/api/v2/ota/partner/products?name=${'n'.repeat(20_000)}`, status: 431 },
  {
    name: 'booking: a body shorter than its Content-Length, then the client ends its side',
    path: () => BOOKING,
    raw: { bytes: () => rawBooking(500, JSON.stringify(valid())), end: true },
    status: 400,
  },
  {
    name: 'booking: a chunked body that ends with the connection',
    path: () => BOOKING,
    raw: {
      bytes: () =>
        `POST ${BOOKING} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${op.ota}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"Act`,
      end: true,
    },
    status: 400,
  },
  {
    name: 'booking: JSON with a trailing comma',
    method: 'POST',
    path: () => BOOKING,
    rawBody: '{"Participants": 1,}',
    headers: { 'content-type': 'application/json' },
    status: 400,
  },
  post('booking: an array instead of an object', () => [valid()]),
  post('booking: a string instead of an object', () => 'book it'),
  post('booking: null', () => null),
  post('booking: a number', () => 42),
  post('booking: an unknown member', withBody({ Coupon: 'FREE' })),
  { name: 'booking: oversized body', method: 'POST', path: () => BOOKING, body: withBody({ PaymentReference: 'p'.repeat(70_000) }), status: 413 },
  // booking: members
  post('booking: ActivityID missing', without('ActivityID')),
  post('booking: ActivityID a number', withBody({ ActivityID: 12 })),
  post('booking: ActivityID with a script tag', withBody({ ActivityID: '<script>alert(1)</script>' })),
  post('booking: Date missing', without('Date')),
  post('booking: Date 2026-02-30', withBody({ Date: '2026-02-30' })),
  post('booking: Date as a number', withBody({ Date: 20260101 })),
  post('booking: Time 25:00', withBody({ Time: '25:00' })),
  post('booking: Time 24:00', withBody({ Time: '24:00' })),
  post('booking: Time 09:60', withBody({ Time: '09:60' })),
  post('booking: Time without leading zero', withBody({ Time: '9:00' })),
  post('booking: Time with seconds', withBody({ Time: '09:00:00' })),
  post('booking: Time in full-width digits', withBody({ Time: '０９:００' })),
  post('booking: Participants missing', without('Participants')),
  post('booking: Participants 0', withBody({ Participants: 0 })),
  post('booking: Participants negative', withBody({ Participants: -1 })),
  post('booking: Participants fractional', withBody({ Participants: 1.5 })),
  post('booking: Participants as a string', withBody({ Participants: '2' })),
  post('booking: Participants huge', withBody({ Participants: 1e21 })),
  post('booking: Participants boolean', withBody({ Participants: true })),
  post('booking: Customer missing', without('Customer')),
  post('booking: Customer an array', withBody({ Customer: [] })),
  post('booking: Customer a string', withBody({ Customer: 'Ada Lovelace' })),
  post('booking: Email invalid', withCustomer({ Email: 'ada(at)example.com' })),
  post('booking: Email missing', () => ({ ...valid(), Customer: { FirstName: 'Ada', LastName: 'Lovelace' } })),
  post('booking: FirstName empty', withCustomer({ FirstName: '' })),
  post('booking: FirstName blank', withCustomer({ FirstName: '   ' })),
  post('booking: FirstName with a NUL byte', withCustomer({ FirstName: 'Ada\u0000' })),
  post('booking: FirstName with an unpaired surrogate', withCustomer({ FirstName: 'Ada\ud800' })),
  post('booking: LastName of 101 characters', withCustomer({ LastName: 'L'.repeat(101) })),
  post('booking: LastName a number', withCustomer({ LastName: 7 })),
  post('booking: Phone with letters', withCustomer({ Phone: 'call me maybe' })),
  post('booking: Customer with an unknown member', withCustomer({ Age: 30 })),
  post('booking: PaymentReference of 256 characters', withBody({ PaymentReference: 'p'.repeat(256) })),
  post('booking: PaymentReference with a NUL byte', withBody({ PaymentReference: 'PAY\u0000' })),
  post('booking: PaymentReference a number', withBody({ PaymentReference: 123 })),
  post('booking: Answers an object', withBody({ Answers: { QuestionID: 1, Value: 'x' } })),
  post('booking: Answers with an empty item', withBody({ Answers: [{}] })),
  post('booking: Answers with a string QuestionID', withBody({ Answers: [{ QuestionID: '1', Value: 'x' }] })),
  post('booking: Answers with an object Value', withBody({ Answers: [{ QuestionID: 1, Value: { a: 1 } }] })),
  post('booking: Answers with a null Value', withBody({ Answers: [{ QuestionID: 1, Value: null }] })),
  post('booking: Answers with a NUL byte in the Value', withBody({ Answers: [{ QuestionID: 1, Value: 'a\u0000b' }] })),
  post('booking: Answers with an unpaired surrogate in the Value', withBody({ Answers: [{ QuestionID: 1, Value: '\udc00' }] })),
  post('booking: Answers with a NUL byte in a list Value', withBody({ Answers: [{ QuestionID: 1, Value: ['a\u0000'] }] })),
  post('booking: Answers with Participant 0', withBody({ Answers: [{ QuestionID: 1, Participant: 0, Value: 'x' }] })),
  {
    name: 'booking: Idempotency-Key of 300 characters',
    method: 'POST',
    path: () => BOOKING,
    body: valid,
    headers: { 'idempotency-key': 'k'.repeat(300) },
    status: 400,
  },
  // lifecycle: references
  lookUp(encodeURIComponent("2222-2222' OR '1'='1")),
  lookUp('2222'),
  lookUp('22222222'),
  lookUp('2222-22222'),
  lookUp('IIII-OOOO'),
  lookUp('0000-1111'),
  lookUp('2222-222%00'),
  lookUp(encodeURIComponent('２２２２-２２２２')),
  lookUp('2222-2222%20'),
  lookUp('2222_2222'),
  { name: 'look up: unknown reference', path: () => `${BOOKING}/2222-2222`, status: 404 },
  { name: 'confirm: bad reference', method: 'POST', path: () => `${BOOKING}/not-a-ref/confirm`, body: () => ({}), status: 400 },
  { name: 'cancel: bad reference', method: 'POST', path: () => `${BOOKING}/${encodeURIComponent('<script>')}/cancel`, body: () => ({}), status: 400 },
  { name: 'cancel: unknown reference', method: 'POST', path: () => `${BOOKING}/2222-2222/cancel`, body: () => ({}), status: 404 },
  // lifecycle: Hold on the create
  hold('Minutes 0', { Minutes: 0 }),
  hold('Minutes 61', { Minutes: 61 }),
  hold('Minutes negative', { Minutes: -5 }),
  hold('Minutes fractional', { Minutes: 1.5 }),
  hold('Minutes as a string', { Minutes: '15' }),
  hold('Minutes null', { Minutes: null }),
  hold('Minutes huge', { Minutes: 1e21 }),
  hold('Minutes missing', {}),
  hold('a number instead of an object', 15),
  hold('null', null),
  hold('an array', [{ Minutes: 15 }]),
  hold('with an unknown member', { Minutes: 15, Seconds: 30 }),
  post('hold: Customer with an invalid Email', withBody({ Hold: { Minutes: 15 }, Customer: { Email: 'nobody' } })),
  post('hold: Customer with an unknown member', withBody({ Hold: { Minutes: 15 }, Customer: { Age: 30 } })),
  // lifecycle: confirm bodies
  confirm('an array body', () => []),
  confirm('a string body', () => 'confirm'),
  confirm('an unknown member', () => ({ Confirm: true })),
  confirm('a Hold member', () => ({ Hold: { Minutes: 15 } })),
  confirm('Customer a string', () => ({ Customer: 'Ada' })),
  confirm('Customer with an invalid Email', () => ({ Customer: { Email: 'ada(at)example.com' } })),
  confirm('Customer with an unknown member', () => ({ Customer: { Age: 30 } })),
  confirm('FirstName blank', () => ({ Customer: { FirstName: '   ' } })),
  confirm('missing the customer the hold left out', () => ({ PaymentReference: 'PAY-1' })),
  confirm('PaymentReference of 256 characters', () => ({ PaymentReference: 'p'.repeat(256) })),
  confirm('Answers an object', () => ({ Answers: { QuestionID: 1, Value: 'x' } })),
  confirm('Answers to an unknown question', () => ({ Answers: [{ QuestionID: 999_999, Value: 'x' }] })),
  confirm('Participants other than the hold', () => ({ Participants: 2 })),
  confirm('Date other than the hold', () => ({ Date: futureDate(10) })),
  confirm('Time other than the hold', () => ({ Time: '10:00' })),
  confirm('ActivityID of another activity', () => ({ ActivityID: '00000000-0000-4000-8000-000000000000' })),
  confirm('Participants zero', () => ({ Participants: 0 })),
  raw('confirm: text/plain body', () => `${held()}/confirm`, '{}', 'text/plain', 415),
  raw('confirm: truncated JSON', () => `${held()}/confirm`, '{"Customer": {', 'application/json', 400),
  {
    name: 'confirm: Idempotency-Key of 300 characters',
    method: 'POST',
    path: () => `${held()}/confirm`,
    body: () => ({}),
    headers: { 'idempotency-key': 'k'.repeat(300) },
    status: 400,
  },
  // lifecycle: cancel bodies
  cancel('Reason empty', () => ({ Reason: '' })),
  cancel('Reason blank', () => ({ Reason: '   ' })),
  cancel('Reason of 501 characters', () => ({ Reason: 'r'.repeat(501) })),
  cancel('Reason a number', () => ({ Reason: 42 })),
  cancel('Reason null', () => ({ Reason: null })),
  cancel('Reason with a NUL byte', () => ({ Reason: 'ill\u0000' })),
  cancel('Reason with an unpaired surrogate', () => ({ Reason: 'ill\ud800' })),
  cancel('an unknown member', () => ({ Reason: 'ill', Refund: true })),
  cancel('an array body', () => ['ill']),
  cancel(
    'a hold with an unknown member',
    () => ({ Why: 'x' }),
    422,
    () => `${held()}/cancel`,
  ),
  raw('cancel: text/plain body', () => `${BOOKING}/${refs.confirmed}/cancel`, 'ill', 'text/plain', 415),
  raw('cancel: JSON in an unsupported charset', () => `${BOOKING}/${refs.confirmed}/cancel`, '{}', 'application/json; charset=latin1', 415),
  raw('cancel: JSON with a trailing comma', () => `${BOOKING}/${refs.confirmed}/cancel`, '{"Reason": "ill",}', 'application/json', 400),
  // lifecycle: sync query
  sync('UpdatedSince not an instant', '?UpdatedSince=yesterday'),
  sync('UpdatedSince a date', '?UpdatedSince=2026-01-01'),
  sync('UpdatedSince without offset', '?UpdatedSince=2026-01-01T10:00:00'),
  sync('UpdatedSince on February 30', '?UpdatedSince=2026-02-30T10:00:00Z'),
  // RFC 3339 allows both; JavaScript's Date reads neither, and they reached the SQL as NaN dates (a 500).
  sync('UpdatedSince a leap second', '?UpdatedSince=2026-01-01T23:59:60Z'),
  sync('UpdatedSince with an offset of hours only', '?UpdatedSince=2026-01-01T10:00:00%2B01'),
  sync('UpdatedSince given twice', '?UpdatedSince=2026-01-01T10:00:00Z&UpdatedSince=2026-01-02T10:00:00Z'),
  sync('Limit 0', '?Limit=0'),
  sync('Limit 501', '?Limit=501'),
  sync('Limit negative', '?Limit=-1'),
  sync('Limit fractional', '?Limit=1.5'),
  sync('Limit a word', '?Limit=ten'),
  sync('Limit Infinity', '?Limit=Infinity'),
  sync('Limit 1e400', '?Limit=1e400'),
  sync('Limit in hexadecimal', '?Limit=0x10'),
  sync('Limit empty', '?Limit='),
  sync('Cursor garbage', '?Cursor=garbage'),
  sync('Cursor with characters outside base64url', '?Cursor=a%2Bb%2F'),
  sync('Cursor of 201 characters', `?Cursor=${'A'.repeat(201)}`),
  sync('Cursor empty', '?Cursor='),
  sync('Cursor of JSON in the wrong shape', `?Cursor=${Buffer.from(JSON.stringify({ xid: 1, id: 1 })).toString('base64url')}`),
  sync('Cursor with a huge id', `?Cursor=${Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', '1', 1e300])).toString('base64url')}`),
  sync(
    'Cursor with an xid of SQL',
    `?Cursor=${Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', "1'; DROP TABLE bookings; --", 1])).toString('base64url')}`,
  ),
  sync('Cursor given twice', '?Cursor=abc&Cursor=def'),
  // JavaScript reads the instant; PostgreSQL cannot hold it (before 4713 BC): it answered 500 "timestamp out of range".
  sync(
    'Cursor starting before any instant PostgreSQL holds',
    `?Cursor=${Buffer.from(JSON.stringify(['-271821-04-20T00:00:00.000Z', '0', 0])).toString('base64url')}`,
  ),
  // webhooks: registering
  register('no Url', { EventTypes: ['booking.created'] }),
  register('an empty Url', { Url: '' }),
  register('a Url that is a number', { Url: 42 }),
  register('a Url of 2001 characters', { Url: `https://93.184.216.34/${'a'.repeat(1979)}` }),
  register('a Url that is not absolute', { Url: 'hooks/booking' }),
  register('a Url over plain http', { Url: 'http://93.184.216.34/hook' }),
  register('an ftp Url', { Url: 'ftp://93.184.216.34/hook' }),
  register('a javascript: Url', { Url: 'javascript:alert(1)' }),
  register('credentials in the Url', { Url: 'https://user:secret@93.184.216.34/hook' }),
  register('a loopback Url', { Url: 'https://127.0.0.1/hook' }),
  register('a decimal-encoded loopback Url', { Url: 'https://2130706433/hook' }),
  register('a cloud metadata Url', { Url: 'https://169.254.169.254/latest/meta-data/' }),
  register('a NUL byte in the host', { Url: 'https://93.184.216.34\u0000.example/hook' }),
  register('a host that does not resolve', { Url: 'https://no-such-host.invalid/hook' }),
  register('an unknown event type', { Url: 'https://93.184.216.34/hook', EventTypes: ['booking.exploded'] }),
  register('a platform event type', { Url: 'https://93.184.216.34/hook', EventTypes: ['order.completed'] }),
  register('no event types', { Url: 'https://93.184.216.34/hook', EventTypes: [] }),
  register('an event type twice', { Url: 'https://93.184.216.34/hook', EventTypes: ['booking.created', 'booking.created'] }),
  register('EventTypes a string', { Url: 'https://93.184.216.34/hook', EventTypes: 'booking.created' }),
  register('an unknown member', { Url: 'https://93.184.216.34/hook', Secret: 'whsec_mine' }),
  register('an array body', ['https://93.184.216.34/hook']),
  raw('webhooks: register with a text/plain body', () => WEBHOOKS, 'https://93.184.216.34/hook', 'text/plain', 415),
  raw('webhooks: register with truncated JSON', () => WEBHOOKS, '{"Url": "https://', 'application/json', 400),
  // webhooks: deliveries, delete, replay
  { name: 'webhooks: deliveries of an ID that is not a UUID', path: () => `${WEBHOOKS}/not-a-uuid/deliveries`, status: 400 },
  deliveries('an unknown Status', '?Status=lost'),
  deliveries('Limit 0', '?Limit=0'),
  deliveries('Limit 201', '?Limit=201'),
  deliveries('Cursor garbage', '?Cursor=garbage'),
  deliveries('a Cursor of SQL', () => `?Cursor=${position("2026-01-01T00:00:00.000000Z'; DROP TABLE webhook_deliveries; --", hook.delivery)}`),
  deliveries('a Cursor on February 30', () => `?Cursor=${position('2026-02-30T10:00:00.000000Z', hook.delivery)}`),
  deliveries('a Cursor in year 0000', () => `?Cursor=${position('0000-01-01T00:00:00.000000Z', hook.delivery)}`),
  deliveries('a Cursor whose id is not a UUID', () => `?Cursor=${position('2026-01-01T00:00:00.000000Z', '1 OR 1=1')}`),
  { name: 'webhooks: delete an ID that is not a UUID', method: 'DELETE', path: () => `${WEBHOOKS}/42`, status: 400 },
  { name: 'webhooks: delete an unknown ID', method: 'DELETE', path: () => `${WEBHOOKS}/00000000-0000-4000-8000-000000000000`, status: 404 },
  { name: 'webhooks: replay a DeliveryID that is not a UUID', method: 'POST', path: () => `${WEBHOOKS}/${hook.endpoint}/deliveries/x/replay`, status: 400 },
  {
    name: 'webhooks: replay an unknown DeliveryID',
    method: 'POST',
    path: () => `${WEBHOOKS}/${hook.endpoint}/deliveries/00000000-0000-4000-8000-000000000000/replay`,
    status: 404,
  },
  replaySince('no Since', {}),
  replaySince('Since not an instant', { Since: 'last week' }),
  replaySince('Since without offset', { Since: '2026-01-01T10:00:00' }),
  replaySince('Since on a leap second', { Since: '2026-06-30T23:59:60Z' }),
  replaySince('an unknown member', { Since: '2026-01-01T10:00:00Z', Until: '2026-01-02T10:00:00Z' }),
];

beforeAll(async () => {
  op = await createOperator(db.pool);
  await createTestTimeslot(db.pool, op.activity, { date: day, time: '09:00', capacity: 100 });
  await createTestQuestion(db.pool, op.activity, { question: 'Notes' });
  const hold = await request(server.url, 'POST', BOOKING, { key: op.ota, body: { ...valid(), Customer: { FirstName: 'Ada' }, Hold: { Minutes: 60 } } });
  const confirmed = await request(server.url, 'POST', BOOKING, { key: op.ota, body: valid() });
  expect([hold.status, confirmed.status]).toEqual([201, 201]);
  refs.hold = hold.body.Reference;
  refs.confirmed = confirmed.body.Reference;
  const endpoint = await request(server.url, 'POST', WEBHOOKS, { key: op.ota, body: { Url: 'https://93.184.216.34/hook' } });
  expect(endpoint.status).toBe(201);
  hook.endpoint = endpoint.body.ID;
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (endpoint_id, account_id, event_id, event_type, payload, status, attempt_count, failed_at)
     VALUES ($1, $2, gen_random_uuid(), 'booking.created', '{}', 'failed', 3, now()) RETURNING id`,
    [hook.endpoint, op.account.id],
  );
  hook.delivery = rows[0]!.id;
});

describe('malformed requests', () => {
  it('has a table of at least 50 cases, 40 of them for the lifecycle operations', () => {
    expect(cases.length).toBeGreaterThanOrEqual(50);
    expect(cases.filter((c) => /^(look up|confirm|cancel|hold|sync):/.test(c.name)).length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)('$name: $status problem, nothing written', async (c) => {
    const before = await databaseFingerprint(db.pool);
    const headers = { ...(c.headers ?? {}) };
    const res = c.raw
      ? await sendRaw(server.url, c.raw.bytes(), { end: c.raw.end ?? false })
      : await request(server.url, c.method ?? 'GET', c.path(), {
          key: op.ota,
          ...(c.body ? { body: c.body() } : {}),
          ...(c.rawBody !== undefined ? { rawBody: typeof c.rawBody === 'function' ? c.rawBody() : c.rawBody } : {}),
          headers,
        });
    expect(res.status).toBe(c.status);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      status: c.status,
      title: expect.any(String),
      detail: expect.any(String),
      instance: expect.stringMatching(/^\/api\/v2\/ota\//),
    });
    expect(res.body.type.startsWith(`${PROBLEM_BASE}/`)).toBe(true);
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });

  it('still books the valid request the cases were derived from', async () => {
    const res = await request(server.url, 'POST', BOOKING, { key: op.ota, body: valid() });
    expect(res.status).toBe(201);
  });
});

describe('slow clients: cut off after the timeouts with a 408 problem, nothing written', () => {
  it.each([
    ['a connection that sends nothing', ''],
    ['a request line that stops halfway', 'GET /api/v2/ota/partner/prod'],
    ['headers that stop mid-line', `GET /api/v2/ota/partner/products HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer `],
  ])('%s is closed within the headers timeout', async (_label, bytes) => {
    const res = await sendRaw(server.url, bytes, { timeoutMs: 120_000 });
    // Closed (after about 1 s) before the request timeout could have: the headers timeout applied.
    expect(res.closedAfterMs).not.toBeNull();
    expect(res.closedAfterMs).toBeLessThan(timeouts.requestTimeoutMs);
    expect(res.status).toBe(408);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/request-timeout`, title: 'Request Timeout', status: 408, detail: expect.any(String) });
    expect(res.headers.get('x-request-id')).toBe(res.body.requestId);
  });

  it('a body that stops arriving is closed within the request timeout, and the booking is not made', async () => {
    const before = await databaseFingerprint(db.pool);
    const body = JSON.stringify(valid());
    // Node's own request timeout, were this one not applied, would be 300 s.
    const res = await sendRaw(server.url, rawBooking(Buffer.byteLength(body), body.slice(0, 40)), { timeoutMs: 120_000 });
    expect(res.closedAfterMs).not.toBeNull();
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/request-timeout`, status: 408, instance: BOOKING });
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });
});

describe('injection-looking text in well-formed places is data', () => {
  it.each([["'; DROP TABLE activities; --"], ['<script>alert(1)</script>'], ['%_\\'], ['Ærøskøbing 🛶 Ünïcödé']])(
    'filters and resolves by %j without effect',
    async (text) => {
      const before = await databaseFingerprint(db.pool);
      const list = await request(server.url, 'GET', `/api/v2/ota/partner/products?name=${encodeURIComponent(text)}`, { key: op.ota });
      expect(list.status).toBe(200);
      expect(list.body).toEqual([]);
      const resolve = await request(server.url, 'GET', `/api/v2/ota/partner/resolve-product?Name=${encodeURIComponent(text)}`, { key: op.ota });
      expect(resolve.status).toBe(404);
      expect(await databaseFingerprint(db.pool)).toEqual(before);
    },
  );

  it('stores unicode and markup in names verbatim, and returns them as JSON strings', async () => {
    const customer = { FirstName: 'Zoë 🛶', LastName: "<b>O'Brien</b>; DROP TABLE bookings", Email: 'zoe@example.com' };
    const res = await request(server.url, 'POST', BOOKING, { key: op.ota, body: { ...valid(), Customer: customer, PaymentReference: "' OR 1=1 --" } });
    expect(res.status).toBe(201);
    expect(res.body.Customer).toEqual({ ...customer, Phone: null });
    const { rows } = await db.pool.query('SELECT customer, payment_reference FROM bookings WHERE reference = $1', [res.body.Reference]);
    expect(rows[0]).toEqual({ customer: { ...customer, Phone: null }, payment_reference: "' OR 1=1 --" });
  });
});
