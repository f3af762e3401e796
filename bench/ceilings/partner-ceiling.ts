// The partner ceiling: a bare Express 5 app whose handlers do exactly the database work and response mapping of
// ours (the same repository functions and domain rules, so the same SQL and the same JSON), for one fixed account,
// without our middleware: no key lookup, no scope check, no request id or pino-http, no schema validation, no
// idempotency, no problem mapping, no ETag. The gap between it and the real API is what the plumbing costs.
// Confirm, cancel and a move (PATCH) call the lifecycle use cases themselves (no Idempotency-Key, so no claim): they
// own their transaction, and copying their lock-decide-write steps here would only let the two drift apart.
import express, { type Request } from 'express';
import {
  awaitDurable,
  createBookingStore,
  createPool,
  findOfferedActivityById,
  listAvailableDates,
  listBookableTimeslots,
  listOfferedActivities,
  listOfferedActivityQuestions,
} from '@backbone/db';
import { reserveBooking, toAvailableDate, toAvailableTimeslot, toProduct, toQuestion, type BookingActor, type NewBooking } from '@backbone/domain';
import { cancelBooking, changeBooking, confirmBooking } from '@backbone/use-cases';
import type { ConfirmBookingRequest } from '@backbone/contracts';

const accountId = process.env.ACCOUNT_ID!;
// The partner whose bookings confirm and cancel may touch, as our API derives it from the key (unset: the operator's view).
const owner = { accountId, partnerId: process.env.PARTNER_ID ?? null };
const actor: BookingActor = owner.partnerId
  ? { kind: 'partner', partnerId: owner.partnerId, apiKeyId: null }
  : { kind: 'operator', userId: null, apiKeyId: null };
const pool = createPool({
  connectionString: process.env.DATABASE_URL!,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
  applicationName: 'bench-partner-ceiling',
});
const store = createBookingStore(pool);
const app = express();
app.set('etag', false);
app.use(express.json());

const param = (req: Request, name: string) => String(req.params[name]);
// eslint-disable-next-line @typescript-eslint/no-base-to-string -- Express 5's 'simple' query parser gives strings (or arrays), never objects
const query = (req: Request, name: string) => String(req.query[name]);

app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});

app.get('/api/v2/ota/partner/products', async (_req, res) => {
  res.json((await listOfferedActivities(pool, accountId, null)).map(toProduct));
});

app.get('/api/v2/ota/partner/resolve-product', async (req, res) => {
  const activity = await findOfferedActivityById(pool, accountId, Number(query(req, 'ID')));
  res.json(activity ? toProduct(activity) : null);
});

app.get('/api/v2/ota/partner/availability/:ActivityID/dates', async (req, res) => {
  const dates = await listAvailableDates(pool, accountId, param(req, 'ActivityID'), query(req, 'StartDate'), query(req, 'EndDate'));
  res.json((dates ?? []).map(toAvailableDate));
});

app.get('/api/v2/ota/partner/availability/:ActivityID/timeslots', async (req, res) => {
  const found = await listBookableTimeslots(pool, accountId, param(req, 'ActivityID'), query(req, 'Date'));
  res.json(found ? found.timeslots.map((slot) => toAvailableTimeslot(slot, found.timeZone)) : []);
});

const questions = async (req: Request) => ((await listOfferedActivityQuestions(pool, accountId, param(req, 'ActivityID'))) ?? []).map(toQuestion);
app.get('/api/v2/ota/partner/questions/:ActivityID', async (req, res) => {
  res.json(await questions(req));
});
app.get('/api/v2/ota/core/questions/:ActivityID', async (req, res) => {
  res.json(await questions(req));
});

app.post('/api/v2/ota/partner/booking', async (req, res) => {
  const body = req.body as {
    ActivityID: string;
    Date: string;
    Time: string;
    Participants: number;
    Customer: NewBooking['customer'];
    PaymentReference?: string;
    Hold?: { Minutes: number };
  };
  try {
    const booking = await reserveBooking(store, {
      accountId,
      apiKeyId: null,
      partnerId: owner.partnerId,
      hold: body.Hold ? { minutes: body.Hold.Minutes } : null,
      channel: 'ota',
      activityId: body.ActivityID,
      date: body.Date,
      time: body.Time,
      participants: body.Participants,
      customer: body.Customer,
      paymentReference: body.PaymentReference ?? null,
      answers: undefined,
    });
    // The reservation commits without a flush; like the use case, the answer waits until the booking is on disk.
    await awaitDurable(pool);
    res.status(201).json(booking);
  } catch (error) {
    res.status(409).json({ error: (error as Error).message });
  }
});

// A lifecycle error (not found, hold expired, window closed) answers 409 here: the bench sends only requests that succeed.
app.post('/api/v2/ota/partner/booking/:Reference/confirm', async (req, res) => {
  try {
    res.json((await confirmBooking({ pool }, { owner, reference: param(req, 'Reference') }, req.body as ConfirmBookingRequest, actor)).value);
  } catch (error) {
    res.status(409).json({ error: (error as Error).message });
  }
});

app.post('/api/v2/ota/partner/booking/:Reference/cancel', async (req, res) => {
  try {
    const { Reason } = req.body as { Reason?: string };
    res.json((await cancelBooking({ pool }, { owner, reference: param(req, 'Reference') }, Reason ? { Reason } : {}, actor)).value);
  } catch (error) {
    res.status(409).json({ error: (error as Error).message });
  }
});

// A move (PATCH with Date and Time) through the change-booking use case, as ours runs it without an Idempotency-Key.
app.patch('/api/v2/ota/partner/booking/:Reference', async (req, res) => {
  try {
    const { Date: date, Time: time } = req.body as { Date: string; Time: string };
    res.json((await changeBooking({ pool }, { owner, reference: param(req, 'Reference') }, { move: { date, time } }, actor)).value);
  } catch (error) {
    res.status(409).json({ error: (error as Error).message });
  }
});

const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(JSON.stringify({ msg: 'partner ceiling listening' })));
server.keepAliveTimeout = 65_000;
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
