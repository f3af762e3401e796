// The shop ceiling: a bare Express 5 app whose handlers make the same calls as the booking page's API (the timeslots
// of a date, a hold, Book), so the same SQL and the same JSON, for one fixed page loaded at start, without our
// middleware: no per-address rate limit, no page lookup per request, no request id or pino-http, no schema validation,
// no problem mapping. The client's address comes from X-Forwarded-For as ours takes it (trust proxy: loopback), since
// the use case counts live holds per address. The gap between it and the real API is what the plumbing costs.
import express, { type Request } from 'express';
import { createPool, findEnabledBookingPage, listShopTimeslots } from '@backbone/db';
import { toShopTimeslot } from '@backbone/domain';
import { confirmShopHold, createShopHold, type ShopCaller } from '@backbone/use-cases';
import type { ConfirmShopHoldRequest, CreateShopHoldRequest } from '@backbone/contracts';

const pool = createPool({
  connectionString: process.env.DATABASE_URL!,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
  applicationName: 'bench-shop-ceiling',
});
const page = await findEnabledBookingPage(pool, process.env.SLUG!);
if (!page) throw new Error(`no enabled booking page ${process.env.SLUG}`);
const deps = { pool };
const app = express();
app.set('etag', false);
app.set('trust proxy', 'loopback');
app.use(express.json());

const param = (req: Request, name: string) => String(req.params[name]);
const callerOf = (req: Request): ShopCaller => ({ page, clientAddress: req.ip ?? 'unknown' });

app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});

app.get('/api/v2/shop/:Slug/activities/:ActivityID/timeslots', async (req, res) => {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- Express 5's 'simple' query parser gives strings
  const found = await listShopTimeslots(pool, page.accountId, param(req, 'ActivityID'), String(req.query.Date));
  res.json(found ? found.timeslots.map((slot) => toShopTimeslot(slot, found.timeZone)) : []);
});

// A refused hold or confirm answers 409 here: the bench sends only requests that succeed.
app.post('/api/v2/shop/:Slug/holds', async (req, res) => {
  try {
    res.status(201).json(await createShopHold(deps, callerOf(req), req.body as CreateShopHoldRequest));
  } catch (error) {
    res.status(409).json({ error: (error as Error).message });
  }
});

app.post('/api/v2/shop/:Slug/holds/:Token/confirm', async (req, res) => {
  try {
    res.json(await confirmShopHold(deps, callerOf(req), param(req, 'Token'), req.body as ConfirmShopHoldRequest));
  } catch (error) {
    res.status(409).json({ error: (error as Error).message });
  }
});

const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(JSON.stringify({ msg: 'shop ceiling listening' })));
server.keepAliveTimeout = 65_000;
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
