// The OCTO ceiling: a bare Express 5 app whose handlers call the same OCTO use cases as the partner API's /octo
// routes (availability, reserve, confirm), so the same SQL and the same JSON, for one fixed reseller, without our
// middleware: no key lookup, no scope check, no request id or pino-http, no schema validation, no OCTO error mapping.
// The gap between it and the real API is what the plumbing costs.
import express, { type Request } from 'express';
import { createPool } from '@backbone/db';
import { checkOctoAvailability, confirmOctoBooking, reserveOctoBooking, type OctoCaller } from '@backbone/use-cases';
import type { OctoAvailabilityRequest, OctoConfirmationRequest, OctoReservationRequest } from '@backbone/contracts';

const caller: OctoCaller = { accountId: process.env.ACCOUNT_ID!, partnerId: process.env.PARTNER_ID!, apiKeyId: null, test: false };
// No Octo-Capabilities: the answers without pricing, as the bench asks ours.
const view = { pricing: false };
const pool = createPool({
  connectionString: process.env.DATABASE_URL!,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
  applicationName: 'bench-octo-ceiling',
});
const deps = { pool };
const app = express();
app.set('etag', false);
app.use(express.json());

const param = (req: Request, name: string) => String(req.params[name]);

app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});

app.post('/octo/availability', async (req, res) => {
  res.json(await checkOctoAvailability(deps, caller.accountId, req.body as OctoAvailabilityRequest, view));
});

// A refused reservation or confirmation answers 409 here: the bench sends only requests that succeed.
app.post('/octo/bookings', async (req, res) => {
  try {
    res.json(await reserveOctoBooking(deps, caller, req.body as OctoReservationRequest, view));
  } catch (error) {
    res.status(409).json({ error: (error as Error).message });
  }
});

app.post('/octo/bookings/:uuid/confirm', async (req, res) => {
  try {
    res.json(await confirmOctoBooking(deps, caller, param(req, 'uuid'), req.body as OctoConfirmationRequest, view));
  } catch (error) {
    res.status(409).json({ error: (error as Error).message });
  }
});

const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(JSON.stringify({ msg: 'octo ceiling listening' })));
server.keepAliveTimeout = 65_000;
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
