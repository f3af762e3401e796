// Customer e-mails (issue 38): the mail worker delivering a backlog of due messages to a local SMTP server (the
// catcher, smtp-server), against the same library (nodemailer, same pool of connections, as many messages in flight
// as the worker's batch) sending the same messages in a bare loop. Target: the worker at >= 70% of the bare rate.
// Then 100,000 reminders of real bookings falling due at one instant, sent by two worker processes that render each
// from its booking: every one received once, none before it was due.
import nodemailer from 'nodemailer';
import { startSmtpCatcher } from '@backbone/mail-worker/smtp-catcher';
import type { BenchContext } from '../lib/context.js';
import { addDays, createBenchAccount, insertActivity, insertTimeslots } from '../lib/fixtures.js';
import { ensureRunning, startProcess } from '../lib/processes.js';
import { fmt, type Row, type Section } from '../lib/report.js';

const CONNECTIONS = 5;
const BATCH = 50;
const TARGET_SHARE = 0.7;
const MESSAGE = {
  from: { name: 'Bench Kayaks', address: 'bookings@bench.test' },
  subject: 'Your booking BK-BENCH is confirmed: Sunset kayak on Saturday 6 June 2026',
  text: 'Hello Ana,\n\nyour booking is confirmed.\nBooking BK-BENCH: Sunset kayak on Saturday 6 June 2026 at 18:30, 2 participants.\n\nBench Kayaks',
  html: '<p>Hello Ana,</p>\n<p>your booking is confirmed.</p>\n<p>Booking BK-BENCH: Sunset kayak on Saturday 6 June 2026 at 18:30, 2 participants.</p>',
};

async function bareLoop(url: string, count: number): Promise<number> {
  const transport = nodemailer.createTransport({ url, pool: true, maxConnections: CONNECTIONS, maxMessages: Infinity });
  const started = performance.now();
  try {
    for (let sent = 0; sent < count; sent += BATCH)
      await Promise.all(
        Array.from({ length: Math.min(BATCH, count - sent) }, (_, i) =>
          transport.sendMail({ ...MESSAGE, to: `bare-${sent + i}@example.com`, headers: { 'Auto-Submitted': 'auto-generated' } }),
        ),
      );
    return count / ((performance.now() - started) / 1000);
  } finally {
    transport.close();
  }
}

function startMailWorker(ctx: BenchContext, name: string, smtpUrl: string) {
  return startProcess({
    name,
    entry: 'apps/mail-worker/dist/main.js',
    cwd: ctx.root,
    logDir: ctx.tmpDir,
    env: {
      DATABASE_URL: ctx.databaseUrl,
      REDIS_URL: ctx.redisUrl,
      QUEUE_PREFIX: 'bench-mail',
      LOG_LEVEL: ctx.logLevel,
      METRICS_PORT: '0',
      SMTP_URL: smtpUrl,
      MAIL_FROM: 'bookings@bench.test',
      MAIL_INTERVAL_MS: '20',
      MAIL_BATCH_SIZE: String(BATCH),
      MAIL_SMTP_CONNECTIONS: String(CONNECTIONS),
    },
  });
}

interface ReminderRun {
  count: number;
  seconds: number;
  received: number;
  distinct: number;
  early: number;
  sentRows: number;
}

/** `count` confirmed bookings (100 timeslots of one activity), each with its reminder row due at one instant, as the trigger writes them. */
async function remindersAtOnce(ctx: BenchContext, count: number): Promise<ReminderRun> {
  const arrivals = new Map<string, number>();
  let received = 0;
  const catcher = await startSmtpCatcher({
    beforeReply: async (mail) => {
      received++;
      const to = mail.envelope.to[0] ?? '';
      if (!arrivals.has(to)) arrivals.set(to, Date.now());
    },
  });
  try {
    const accountId = await createBenchAccount(ctx.pool, 'bench reminders operator', 'Europe/Berlin');
    const activity = await insertActivity(ctx.pool, accountId, 'Sunset kayak tour along the old harbour and the lighthouse');
    const firstDate = addDays(new Date().toISOString().slice(0, 10), 2);
    await insertTimeslots(ctx.pool, accountId, activity.id, firstDate, 100, ['18:30'], Math.ceil(count / 100) * 4);
    ctx.log(`mail: ${fmt.int(count)} reminders due at once`);
    await ctx.pool.query(
      `INSERT INTO bookings (account_id, reference, activity_id, timeslot_id, channel, participants, customer, status)
       SELECT $1, 'RM' || to_hex(extract(epoch FROM now())::bigint) || '-' || n, t.activity_id, t.id, 'pos', 1 + n % 4,
              jsonb_build_object('FirstName', 'Ana-Maria', 'LastName', 'Oliveira da Costa', 'Email', 'reminder-' || n || '@example.com'),
              'confirmed'
         FROM (SELECT array_agg(id ORDER BY id) AS ids FROM timeslots WHERE account_id = $1) s,
              generate_series(0, $2::int - 1) n
         JOIN timeslots t ON true
        WHERE t.id = s.ids[1 + n % array_length(s.ids, 1)]`,
      [accountId, count],
    );
    await ctx.pool.query(
      `UPDATE timeslots t SET booked = s.n FROM (SELECT timeslot_id, sum(participants) AS n FROM bookings WHERE account_id = $1 GROUP BY 1) s
        WHERE t.id = s.timeslot_id`,
      [accountId],
    );
    const dueInMs = 20_000;
    await ctx.pool.query(
      `INSERT INTO mail_messages (account_id, booking_id, kind, dedupe_key, to_address, data, next_attempt_at)
       SELECT b.account_id, b.id, 'reminder', 'reminder:' || b.id || ':' || extract(epoch FROM t.starts_at)::bigint, b.customer->>'Email',
              jsonb_build_object('Reference', b.reference, 'Date', t.local_date, 'Time', to_char(t.local_time, 'HH24:MI'), 'Participants', b.participants,
                                 'Status', 'confirmed'),
              now() + make_interval(secs => $2 / 1000.0)
         FROM bookings b JOIN timeslots t ON t.id = b.timeslot_id WHERE b.account_id = $1`,
      [accountId, dueInMs],
    );
    await ctx.pool.query('VACUUM ANALYZE bookings, mail_messages');
    const dueAt = (
      await ctx.pool.query<{ at: Date }>(`SELECT min(next_attempt_at) AS at FROM mail_messages WHERE account_id = $1 AND kind = 'reminder'`, [accountId])
    ).rows[0]!.at.getTime();
    const workers = [startMailWorker(ctx, 'mail-worker-a', catcher.url), startMailWorker(ctx, 'mail-worker-b', catcher.url)];
    try {
      const sentCount = async () =>
        (await ctx.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM mail_messages WHERE account_id = $1 AND status = 'sent'`, [accountId])).rows[0]!.n;
      const deadline = dueAt + 1_200_000;
      let sent = 0;
      while ((sent = await sentCount()) < count) {
        for (const worker of workers) ensureRunning(worker);
        if (Date.now() > deadline) throw new Error(`mail workers: ${sent} of ${count} reminders sent in 20 minutes`);
        // The catcher keeps every message; only the arrivals are needed here.
        catcher.messages.length = 0;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const seconds = (Date.now() - dueAt) / 1000;
      const early = [...arrivals.values()].filter((at) => at < dueAt).length;
      ctx.log(`  reminders: ${fmt.int(count)} in ${seconds.toFixed(0)} s, ${fmt.int(received)} received (${fmt.int(arrivals.size)} addresses), ${early} early`);
      return { count, seconds, received, distinct: arrivals.size, early, sentRows: sent };
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
  } finally {
    await catcher.close();
  }
}

/**
 * The worker against the bare loop on backlogs of pre-rendered messages, in alternating rounds (bare, worker, bare,
 * worker...): one sample of each swings with whatever else the machine does, so the ratio is the median of the rounds'.
 */
async function workerAgainstBare(ctx: BenchContext, count: number, rounds: number): Promise<Row[]> {
  const catcher = await startSmtpCatcher();
  try {
    const accountId = await createBenchAccount(ctx.pool, 'bench mail operator', 'UTC');
    await bareLoop(catcher.url, Math.min(500, count)); // warm-up: connections, JIT
    const worker = startMailWorker(ctx, 'mail-worker', catcher.url);
    try {
      const sentCount = async (round: number) =>
        (
          await ctx.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM mail_messages WHERE account_id = $1 AND status = 'sent' AND dedupe_key LIKE $2`, [
            accountId,
            `bench:${round}:%`,
          ])
        ).rows[0]!.n;
      const samples: { bare: number; worker: number; early: number }[] = [];
      for (let round = 0; round < rounds; round++) {
        const bare = await bareLoop(catcher.url, count);
        // The backlog falls due together a moment from now (the worker is up and polling); the clock starts at that instant.
        const dueInMs = 3_000;
        await ctx.pool.query(
          `INSERT INTO mail_messages (account_id, kind, dedupe_key, to_address, subject, text_body, html_body, next_attempt_at)
           SELECT $1, 'test', 'bench:' || $7 || ':' || i, 'worker-' || i || '@example.com', $2, $3, $4, now() + make_interval(secs => $5 / 1000.0)
             FROM generate_series(1, $6) AS i`,
          [accountId, MESSAGE.subject, MESSAGE.text, MESSAGE.html, dueInMs, count, round],
        );
        const due = Date.now() + dueInMs;
        const early = await sentCount(round);
        const deadline = due + 600_000;
        let sent = 0;
        while ((sent = await sentCount(round)) < count) {
          ensureRunning(worker);
          if (Date.now() > deadline) throw new Error(`mail worker: ${sent} of ${count} sent in 10 minutes`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const rate = count / ((Date.now() - due) / 1000);
        samples.push({ bare, worker: rate, early });
        ctx.log(`  round ${round + 1}: bare ${bare.toFixed(0)} msg/s, worker ${rate.toFixed(0)} msg/s (${((rate / bare) * 100).toFixed(0)}%)`);
      }
      const caught = catcher.messages.filter((m) => m.envelope.to[0]?.startsWith('worker-')).length;
      const early = samples.reduce((sum, sample) => sum + sample.early, 0);
      const ratios = samples.map((sample) => sample.worker / sample.bare);
      const median = <T>(values: T[], by: (value: T) => number) => [...values].sort((a, b) => by(a) - by(b))[Math.floor(values.length / 2)]!;
      const middle = median(samples, (sample) => sample.worker / sample.bare);
      const ratio = middle.worker / middle.bare;
      return [
        { metric: 'bare nodemailer loop: messages/s (the median round)', ours: `${middle.bare.toFixed(0)} msg/s` },
        {
          metric: 'mail worker: messages/s (claim, send, record, publish the metered event)',
          ours: `${middle.worker.toFixed(0)} msg/s (${fmt.int(caught)} received of ${fmt.int(count * rounds)}, ${early} before due)`,
          ratio: `${(ratio * 100).toFixed(0)}% of bare (rounds ${ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(', ')})`,
          target: `>= ${TARGET_SHARE * 100}% of bare, each once, none early`,
          pass: ratio >= TARGET_SHARE && caught === count * rounds && early === 0,
        },
      ];
    } finally {
      await worker.stop();
    }
  } finally {
    await catcher.close();
  }
}

export async function mailSection(ctx: BenchContext): Promise<Section> {
  const count = Number(process.env.BENCH_MAIL_MESSAGES ?? 3000);
  const reminders = Number(process.env.BENCH_MAIL_REMINDERS ?? 100_000);
  // The sections before this one leave their bookings' e-mails queued (the booking page's confirmations and reminders);
  // the worker would send those too, inside the measured window. They are withdrawn first: each run here measures its
  // own messages alone.
  const withdrawn = await ctx.pool.query(
    `UPDATE mail_messages SET status = 'cancelled', last_error = 'bench: withdrawn before the mail section' WHERE status = 'queued'`,
  );
  ctx.log(`mail: ${fmt.int(withdrawn.rowCount ?? 0)} messages of earlier sections withdrawn`);
  const rounds = Number(process.env.BENCH_MAIL_ROUNDS ?? 5);
  const rows = await workerAgainstBare(ctx, count, rounds);
  const run = await remindersAtOnce(ctx, reminders);
  rows.push({
    metric: `${fmt.int(run.count)} reminders due at one instant, two mail workers`,
    ours: `all sent in ${run.seconds.toFixed(0)} s (${(run.count / run.seconds).toFixed(0)} msg/s); ${fmt.int(run.received)} received by ${fmt.int(run.distinct)} addresses, ${run.early} before due`,
    target: 'each sent once, none early',
    pass: run.sentRows === run.count && run.received === run.count && run.distinct === run.count && run.early === 0,
  });
  return {
    title: 'Customer e-mails (issue 38)',
    method: [
      `${fmt.int(count)} messages to a local SMTP server (smtp-server, in the bench process). Bare: nodemailer, ${CONNECTIONS} pooled connections, ${BATCH} messages in flight, after a warm-up of 500. Worker: the mail worker's bundle (started once) on the same messages (pre-rendered test rows) falling due at one instant, ${CONNECTIONS} connections, batches of ${BATCH}, clock from the due instant to the last row recorded sent (polled every 50 ms). ${rounds} rounds, bare then worker in each; the ratio is the median round's.`,
      `Reminders: ${fmt.int(reminders)} confirmed point-of-sale bookings over 100 timeslots, each with the reminder row the booking trigger writes (kind reminder, its dedupe key), all due at one instant 20 s ahead; two mail worker processes claim (FOR UPDATE SKIP LOCKED), render each from its booking, activity and account, send and record it. The catcher counts every message received and the first arrival per address; "before due" counts arrivals earlier than the rows' due instant.`,
    ],
    rows,
  };
}
