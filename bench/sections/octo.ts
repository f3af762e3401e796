// OCTO (issue 26): availability of one product over 30 days, a reservation and a confirmation, each next to a bare
// Express handler making the same OCTO use case calls, at full load and at a steady half-ceiling rate.
import { randomUUID } from 'node:crypto';
import type { AutocannonRequest } from 'autocannon';
import { formatInZone } from '@backbone/domain';
import { ceilingBundle } from '../lib/build.js';
import { startServer, type BenchContext } from '../lib/context.js';
import { addDays, insertActivity, insertTimeslots } from '../lib/fixtures.js';
import {
  alternatingRounds,
  describeStatuses,
  medianBy,
  medianByP99,
  medianRound,
  PACED_ROUNDS,
  shareOf,
  THROUGHPUT_ROUNDS,
  throughputRounds,
  type LoadResult,
} from '../lib/load.js';
import { pacedRequests, runPaced } from '../lib/paced.js';
import { ensureRunning } from '../lib/processes.js';
import { fmt, type Row, type Section } from '../lib/report.js';
import { API_NODE_OPTIONS } from '../../scripts/dev-env.js';
import { createLifecycleFixture, measureStockedWrites, stockBookings, type LifecycleFixture } from './lifecycle.js';

const AVAILABILITY_DAYS = 30;
const AVAILABILITY_TIMES = ['09:00', '10:30', '12:00', '13:30', '15:00', '16:30', '18:00', '19:30'];
const PACED_SEC = 8;
const PACED_WARMUP_SEC = 2;
const LATENCY_TARGET_MS = 50;
const CONTACT = { fullName: 'Ada Lovelace', emailAddress: 'ada@example.com', phoneNumber: '+442079460958', locales: ['en'], country: 'GB' };

function unexpected(result: LoadResult): string | null {
  if (result.requests === 0) return 'no responses';
  if (shareOf(result, (s) => s === 200) < 1 || result.errors > 0 || result.timeouts > 0)
    return `unexpected answers: ${describeStatuses(result)}, ${result.errors} socket errors, ${result.timeouts} timeouts`;
  return null;
}

interface PostCase {
  name: string;
  load: (url: string) => { url: string; method: string; headers: Record<string, string>; setupRequest: (r: AutocannonRequest) => AutocannonRequest };
}

/**
 * Throughput of a request that needs no stock (each makes its own work) next to the ceiling in alternating rounds,
 * then its latency at a steady half-ceiling rate, as the usage section's single POST.
 */
async function measurePost(ctx: BenchContext, urls: { ours: string; ceiling: string }, post: PostCase): Promise<{ rows: Row[]; problems: string[] }> {
  const problems: string[] = [];
  const check = (side: string, result: LoadResult) => {
    const issue = unexpected(result);
    if (issue) problems.push(`${post.name} (${side}): ${issue}`);
    return issue === null;
  };
  const roundSec = Math.max(2, Math.round(ctx.durationSec / 2));
  const full = await throughputRounds({ urls, connections: ctx.connections, roundSec, warmupSec: ctx.warmupSec, load: post.load, log: ctx.log });
  const rate = Math.max(1, Math.round(medianBy(full.ceiling, (r) => r.rps).rps / 2));
  const paced = await alternatingRounds(
    (url) => runPaced({ url, connections: ctx.connections, rate, durationSec: PACED_SEC, warmupSec: PACED_WARMUP_SEC, request: pacedRequests(post.load(url)) }),
    urls,
    PACED_ROUNDS,
  );
  ctx.log(
    `  paced at ${rate}/s, p99 of each round: ours ${paced.ours.map((r) => fmt.ms(r.p99)).join(', ')}; ceiling ${paced.ceiling.map((r) => fmt.ms(r.p99)).join(', ')}`,
  );
  const fullOk = full.ours.map((r) => check('ours', r)).every(Boolean);
  const pacedOk = paced.ours.map((r) => check('ours, paced', r)).every(Boolean);
  [...full.ceiling, ...paced.ceiling].forEach((r) => check('ceiling', r));
  const median = medianRound(full, (r) => r.rps);
  const [mine, bare] = [medianByP99(paced.ours), medianByP99(paced.ceiling)];
  return {
    problems,
    rows: [
      {
        metric: `${post.name}: req/s`,
        ours: fmt.int(median.ours.rps),
        ceiling: fmt.int(median.ceiling.rps),
        ratio: `${fmt.pct(median.ratio)} (rounds ${median.ratios.map(fmt.pct).join(', ')})`,
        target: '>= 70% of ceiling',
        pass: fullOk && median.ratio >= 0.7,
      },
      {
        metric: `${post.name}: p50 / p99 ms at full load`,
        ours: `${fmt.ms(median.ours.p50)} / ${fmt.ms(median.ours.p99)}`,
        ceiling: `${fmt.ms(median.ceiling.p50)} / ${fmt.ms(median.ceiling.p99)}`,
      },
      {
        metric: `${post.name}: p50 / p99 ms at a steady ${fmt.int(rate)} req/s (half the ceiling's maximum), median of ${PACED_ROUNDS} rounds`,
        ours: `${fmt.ms(mine.p50)} / ${fmt.ms(mine.p99)} (p99s ${paced.ours.map((r) => fmt.ms(r.p99)).join(', ')})`,
        ceiling: `${fmt.ms(bare.p50)} / ${fmt.ms(bare.p99)} (p99s ${paced.ceiling.map((r) => fmt.ms(r.p99)).join(', ')})`,
        target: `p99 < ${LATENCY_TARGET_MS} ms`,
        pass: pacedOk && mine.p99 < LATENCY_TARGET_MS,
      },
    ],
  };
}

/** The OCTO availability id of each of the fixture's timeslots (its local start with the offset), in the same order. */
async function availabilityIds(ctx: BenchContext, fixture: LifecycleFixture): Promise<string[]> {
  const { rows } = await ctx.pool.query<{ id: string; starts_at: Date; time_zone: string }>(
    `SELECT t.id, t.starts_at, a.time_zone FROM timeslots t JOIN activities a ON a.id = t.activity_id WHERE t.id = ANY($1::bigint[])`,
    [fixture.timeslots],
  );
  const byId = new Map(rows.map((r) => [Number(r.id), formatInZone(r.starts_at, r.time_zone)]));
  return fixture.timeslots.map((id) => byId.get(id)!);
}

export async function octoSection(ctx: BenchContext): Promise<Section> {
  // The lifecycle's fixture: an ota key with its partner (the reseller) and an activity of 1,440 timeslots (90 days of
  // 16, capacity 1,000,000), where reservations and the stock of holds to confirm spread.
  const fixture = await createLifecycleFixture(ctx, 1);
  const ids = await availabilityIds(ctx, fixture);
  // A product as a reseller shows it: eight departures a day over 60 days, twelve places each; 30 days of it asked.
  const product = await insertActivity(ctx.pool, fixture.accountId, 'Kayak tour (OCTO availability)');
  const first = fixture.hot.date;
  await insertTimeslots(ctx.pool, fixture.accountId, product.id, first, 60, AVAILABILITY_TIMES, 12);
  const availabilityBody = JSON.stringify({
    productId: product.activityId,
    optionId: 'DEFAULT',
    localDateStart: first,
    localDateEnd: addDays(first, AVAILABILITY_DAYS - 1),
  });

  const ours = await startServer(ctx, 'partner-api-octo', 'apps/partner-api/dist/server.js', { NODE_OPTIONS: API_NODE_OPTIONS }, '/readyz');
  const ceiling = await startServer(ctx, 'octo-ceiling', ceilingBundle('octo-ceiling'), {
    ACCOUNT_ID: fixture.accountId,
    PARTNER_ID: fixture.partnerId,
    NODE_OPTIONS: API_NODE_OPTIONS,
  });
  const urls = { ours: ours.url, ceiling: ceiling.url };
  const roundSec = Math.max(2, Math.round(ctx.durationSec / 2));
  const headers = { authorization: `Bearer ${fixture.key}`, 'content-type': 'application/json' };
  const rows: Row[] = [];
  const problems: string[] = [];
  let availabilities = 0;
  try {
    const answered = await fetch(`${ours.url}/octo/availability`, { method: 'POST', headers, body: availabilityBody });
    availabilities = ((await answered.json()) as unknown[]).length;
    if (availabilities !== AVAILABILITY_DAYS * AVAILABILITY_TIMES.length)
      problems.push(`availability: ${availabilities} availabilities, ${AVAILABILITY_DAYS * AVAILABILITY_TIMES.length} expected`);

    ctx.log('octo: availability');
    const availability = await measurePost(ctx, urls, {
      name: `POST /octo/availability (one product, ${AVAILABILITY_DAYS} days: ${availabilities} availabilities)`,
      load: (url) => ({ url, method: 'POST', headers, setupRequest: (r) => ({ ...r, method: 'POST', path: '/octo/availability', body: availabilityBody }) }),
    });
    ensureRunning(ours.proc, ceiling.proc);

    ctx.log('octo: reserve');
    let n = 0;
    const reserve = await measurePost(ctx, urls, {
      name: 'POST /octo/bookings (reserve: ON_HOLD, 2 unit items)',
      load: (url) => ({
        url,
        method: 'POST',
        headers,
        setupRequest: (r) => {
          // A new uuid each, on the next timeslot in turn: no request is a repeat and none queues on another's row.
          const body = {
            uuid: randomUUID(),
            productId: fixture.activityId,
            optionId: 'DEFAULT',
            availabilityId: ids[n++ % ids.length],
            unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }],
            resellerReference: `RES-${n}`,
            contact: CONTACT,
          };
          return { ...r, method: 'POST', path: '/octo/bookings', body: JSON.stringify(body) };
        },
      }),
    });
    ensureRunning(ours.proc, ceiling.proc);

    ctx.log('octo: confirm');
    const confirm = await measureStockedWrites(
      ctx,
      {
        name: 'POST /octo/bookings/{uuid}/confirm',
        stock: (count) => stockBookings(ctx, fixture, 'on_hold', count, { octo: true }),
        headers,
        request: (stocked, i) => ({
          method: 'POST',
          path: `/octo/bookings/${stocked.octoUuid}/confirm`,
          body: JSON.stringify({ contact: CONTACT, resellerReference: `RES-CONFIRM-${i}` }),
        }),
      },
      urls,
      roundSec,
    );
    ensureRunning(ours.proc, ceiling.proc);
    for (const figures of [availability, reserve, confirm]) {
      rows.push(...figures.rows);
      problems.push(...figures.problems);
    }
  } finally {
    await ours.proc.stop();
    await ceiling.proc.stop();
  }
  return {
    title: 'OCTO (issue 26)',
    rows,
    method: [
      `Ours: the partner API's /octo routes (its bundle under plain node, NODE_OPTIONS \`${API_NODE_OPTIONS}\`, its own process partner-api-octo) with an ota key of a partner (the reseller), no Octo-Capabilities (answers without pricing). Ceiling: bench/ceilings/octo-ceiling.ts, a bare Express 5 app whose handlers call the same use cases (checkOctoAvailability, reserveOctoBooking, confirmOctoBooking of packages/use-cases/src/octo.ts, over db/octo.repository.ts) for the same account and partner, without key lookup, scope check, validation, logging or OCTO's error mapping.`,
      `Availability: the same body every request, localDateStart ${first} to localDateEnd ${addDays(first, AVAILABILITY_DAYS - 1)} of a product with ${AVAILABILITY_TIMES.length} timeslots a day (capacity 12): ${availabilities} availabilities an answer.`,
      `Reserve and confirm are measured separately. Reserve: each request a new uuid, 2 adult unit items, a contact and a resellerReference, on the next of an activity's 1,440 timeslots (90 days of 16, capacity 1,000,000) in turn, so none queues on one timeslot row; the uuid is the reservation's idempotency key, so each request also claims one. Confirm: each request confirms a hold of its own with a contact and a resellerReference (no new unit items or notes, so one confirmBooking), the holds stocked with SQL before each run with the OCTO identity a reservation gives them (a uuid and one unit item), spread over the same 1,440 timeslots; a run never sends more requests than its stock.`,
      `Rounds: autocannon, ${ctx.connections} connections, ${THROUGHPUT_ROUNDS} rounds alternating ours and the ceiling (which goes first changes every round), each ${roundSec} s measured after its own warm-up (${ctx.warmupSec} s in the first round, 1 s after), the round with the median ratio reported. Latency: open-loop at half the ceiling's median maximum rate over at most ${ctx.connections} connections (bench/lib/paced.ts), ${PACED_ROUNDS} rounds of ${PACED_WARMUP_SEC} s unmeasured then ${PACED_SEC} s measured, alternating, the round with the median p99 reported.`,
      ...(problems.length > 0 ? [`Unexpected: ${problems.join('; ')}`] : ['Every measured request answered 200.']),
    ],
  };
}
