// An in-memory stand-in for the shop API (/api/v2/shop/{Slug}/..., the contracts of packages/contracts/src/shop), for
// the page's own browser tests of what it shows and how it behaves (layout at 390 and 1280 px, keyboard, errors next
// to their fields, the hold's time, full timeslots, 404). The walk through the real API is booking-page.e2e.test.ts.
import { randomBytes, randomUUID } from 'node:crypto';
import express, { type Express } from 'express';

export const SLUG = 'fjord-kayaks-and-sea-adventures';
export const ACTIVITY_ID = 'd3e0d3e0-0000-4000-8000-00000000a002';

export interface DoubleBooking {
  Token: string;
  Reference: string;
  Status: 'on_hold' | 'confirmed' | 'cancelled';
  Date: string;
  Time: string;
  Participants: number;
  Customer: Record<string, string>;
  Answers: unknown[];
  Website?: string;
}

export function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export function createShopDouble(): { app: Express; bookings: DoubleBooking[]; uploads: string[] } {
  const bookings: DoubleBooking[] = [];
  const uploads: string[] = [];
  const app = express();
  const notFound = (res: express.Response) =>
    res.status(404).json({ type: 'https://errors.example/not-found', title: 'Not Found', status: 404, detail: 'No such page.' });
  const activity = {
    ActivityID: ACTIVITY_ID,
    Name: 'Sunset sea-kayak expedition around the Lighthouse Islands with a local guide',
    Description:
      'Paddle out at golden hour with a certified guide, past the old lighthouse and the seal colony, and back under the first stars. Kayaks, paddles, spray skirts and dry bags are included.\nBring warm clothes.',
    DurationMinutes: 150,
    TimeZone: 'Europe/Lisbon',
    Price: { Amount: 4950, Currency: 'EUR' },
    MinParticipants: 1,
    MaxParticipants: 6,
  };
  const second = {
    ...activity,
    ActivityID: 'd3e0d3e0-0000-4000-8000-00000000a003',
    Name: 'Family paddle',
    Description: 'One hour on calm water.',
    DurationMinutes: 60,
    Price: { Amount: 2500, Currency: 'EUR' },
  };
  const slots = (date: string) =>
    [
      { Time: '09:00', Available: 0 },
      { Time: '13:30', Available: 2 },
      { Time: '18:00', Available: 6 },
    ].map((s) => ({ ...s, StartsAt: `${date}T${s.Time}:00+00:00`, EndsAt: `${date}T${s.Time}:00+00:00`, Full: s.Available === 0 }));
  const view = (b: DoubleBooking) => ({
    Reference: b.Reference,
    Status: b.Status,
    ActivityID: ACTIVITY_ID,
    ActivityName: activity.Name,
    Date: b.Date,
    Time: b.Time,
    StartsAt: `${b.Date}T${b.Time}:00+00:00`,
    TimeZone: 'Europe/Lisbon',
    Participants: b.Participants,
    Customer: b.Customer,
    Price: { Currency: 'EUR', UnitAmount: 4950, TotalAmount: 4950 * b.Participants, AtSale: true },
    ExpiresAt: b.Status === 'on_hold' ? new Date(Date.now() + 600_000).toISOString() : null,
    ChangeableUntil: new Date(Date.now() + 86_400_000).toISOString(),
    CreatedAt: new Date().toISOString(),
  });
  const page = express.Router();
  page.get('/', (_req, res) =>
    res.json({
      Slug: SLUG,
      AccountName: 'Fjord Kayaks & Sea Adventures of the Atlantic Coast',
      Currency: 'EUR',
      Locale: 'en-IE',
      TimeZone: 'Europe/Lisbon',
      Note: 'Meet us at the blue hut on Praia da Rocha 15 minutes before the start.',
      Terms: 'Cancellations up to 24 hours before the start are free. Participants must be able to swim.',
      PaymentMethod: 'pay_at_venue',
      Activities: [activity, second],
    }),
  );
  page.get('/activities/:id', (req, res) =>
    req.params.id === ACTIVITY_ID
      ? res.json({
          ...activity,
          Questions: [
            {
              ID: 1,
              Question: 'Any medical conditions or allergies our guides should know about before we go out on the water?',
              Type: 'textarea',
              Required: true,
              Options: [],
              PerParticipant: false,
            },
            { ID: 2, Question: 'Paddling experience', Type: 'select', Required: true, Options: ['None', 'Some', 'Expert'], PerParticipant: false },
            { ID: 3, Question: 'Signed waiver (PDF or photo)', Type: 'file', Required: true, Options: [], PerParticipant: false },
            { ID: 4, Question: 'I can swim 50 metres', Type: 'checkbox', Required: true, Options: [], PerParticipant: false },
          ],
        })
      : notFound(res),
  );
  page.get('/activities/:id/dates', (req, res) => {
    const month = typeof req.query.Month === 'string' ? req.query.Month : '';
    const dates = [1, 2, 5].map(dayFromNow).filter((d) => d.startsWith(month));
    res.json(dates.map((Date) => ({ Date, Available: 8, Timeslots: 2 })));
  });
  page.get('/activities/:id/timeslots', (req, res) => res.json(slots(typeof req.query.Date === 'string' ? req.query.Date : '')));
  page.post('/holds', express.json(), (req, res) => {
    const body = req.body as { Date: string; Time: string; Participants: number };
    const booking: DoubleBooking = {
      Token: randomBytes(32).toString('base64url'),
      Reference: `K${String(bookings.length).padStart(3, '7')}-4Y8T`,
      Status: 'on_hold',
      Date: body.Date,
      Time: body.Time,
      Participants: body.Participants,
      Customer: {},
      Answers: [],
    };
    bookings.push(booking);
    res.status(201).json({ Token: booking.Token, Booking: view(booking) });
  });
  const byToken = (token: string) => bookings.find((b) => b.Token === token);
  page.delete('/holds/:token', (req, res) => {
    const booking = byToken(req.params.token);
    if (booking?.Status === 'on_hold') booking.Status = 'cancelled';
    res.status(204).end();
  });
  page.post('/holds/:token/files', express.raw({ type: () => true, limit: '11mb' }), (req, res) => {
    uploads.push(String(req.headers['content-type']));
    res.status(201).json({ FileID: randomUUID(), Name: 'waiver.pdf', ContentType: 'application/pdf', Size: (req.body as Buffer).length });
  });
  page.post('/holds/:token/confirm', express.json(), (req, res) => {
    const booking = byToken(req.params.token);
    if (!booking) return notFound(res);
    const body = req.body as { Customer: Record<string, string>; Answers: unknown[]; Website?: string };
    if (body.Customer.Email?.endsWith('@invalid.example'))
      return res.status(422).json({
        title: 'Unprocessable',
        status: 422,
        detail: 'Invalid request.',
        errors: [{ field: 'Customer.Email', message: 'This address cannot receive mail.' }],
      });
    Object.assign(booking, { Status: 'confirmed', Customer: body.Customer, Answers: body.Answers, Website: body.Website });
    res.json(view(booking));
  });
  page.get('/bookings/:token', (req, res) => {
    const booking = byToken(req.params.token);
    return booking ? res.json(view(booking)) : notFound(res);
  });
  page.post('/bookings/:token/cancel', (req, res) => {
    const booking = byToken(req.params.token);
    if (!booking) return notFound(res);
    booking.Status = 'cancelled';
    res.json(view(booking));
  });
  page.post('/bookings/:token/move', express.json(), (req, res) => {
    const booking = byToken(req.params.token);
    if (!booking) return notFound(res);
    Object.assign(booking, req.body as object);
    res.json(view(booking));
  });
  app.use(`/api/v2/shop/${SLUG}`, page);
  app.use('/api/v2/shop', (_req, res) => notFound(res));
  return { app, bookings, uploads };
}
