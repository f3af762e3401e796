// The operator ceiling: a bare Express 5 app whose handlers make the same use case and repository calls as the
// operator API's day operations (reschedule, check-in, manifest, sales report, booking history), so the same SQL and
// the same JSON, for one fixed account and user, without our middleware: no session lookup, no role or origin check,
// no request id or pino-http, no schema validation, no idempotency, no problem mapping. The gap between it and the
// real API is what the plumbing costs.
import express, { type Request } from 'express';
import { createPool, getManifest } from '@backbone/db';
import type { BookingActor } from '@backbone/domain';
import { listOperatorBookingHistory, checkInOperatorBooking, rescheduleOperatorBooking, getOperatorSalesReport } from '@backbone/use-cases';
import type { RescheduleRequest } from '@backbone/contracts';

const accountId = process.env.ACCOUNT_ID!;
// The sales report reads another account (the one holding a million bookings), as the usage ceiling's summaries do.
const salesAccountId = process.env.SALES_ACCOUNT_ID ?? accountId;
// The signed-in user our API records as the actor of each change.
const actor: BookingActor = { kind: 'operator', userId: process.env.USER_ID ?? null, apiKeyId: null };
const pool = createPool({
  connectionString: process.env.DATABASE_URL!,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
  applicationName: 'bench-operator-ceiling',
});
const deps = { pool };
const app = express();
app.set('etag', false);
app.use(express.json());

const param = (req: Request, name: string) => String(req.params[name]);
// eslint-disable-next-line @typescript-eslint/no-base-to-string -- Express 5's 'simple' query parser gives strings (or arrays), never objects
const query = (req: Request, name: string) => String(req.query[name]);
const ref = (req: Request) => ({ accountId, reference: param(req, 'Reference') });

app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});

// A lifecycle error answers 409 here: the bench sends only requests that succeed.
app.post('/api/v2/operator/bookings/:Reference/reschedule', async (req, res) => {
  try {
    res.json((await rescheduleOperatorBooking(deps, ref(req), req.body as RescheduleRequest, actor)).value);
  } catch (error) {
    res.status(409).json({ error: (error as Error).message });
  }
});

app.post('/api/v2/operator/bookings/:Reference/check-in', async (req, res) => {
  try {
    res.json(await checkInOperatorBooking(deps, ref(req), actor));
  } catch (error) {
    res.status(409).json({ error: (error as Error).message });
  }
});

app.get('/api/v2/operator/manifest', async (req, res) => {
  res.json(await getManifest(pool, accountId, query(req, 'Date'), null));
});

app.get('/api/v2/operator/reports/sales', async (req, res) => {
  res.json(await getOperatorSalesReport(deps, { accountId: salesAccountId, from: query(req, 'From'), to: query(req, 'To') }));
});

app.get('/api/v2/operator/bookings/:Reference/history', async (req, res) => {
  res.json(await listOperatorBookingHistory(deps, ref(req)));
});

const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(JSON.stringify({ msg: 'operator ceiling listening' })));
server.keepAliveTimeout = 65_000;
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
