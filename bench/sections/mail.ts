// Customer e-mails (issue 38): the mail worker delivering a backlog of due messages to a local SMTP server (the
// catcher, smtp-server), against the same library (nodemailer, same pool of connections, as many messages in flight
// as the worker's batch) sending the same messages in a bare loop. Target: the worker at >= 70% of the bare rate.
import nodemailer from 'nodemailer';
import { startSmtpCatcher } from '@backbone/mail-worker/smtp-catcher';
import type { BenchContext } from '../lib/context.js';
import { createBenchAccount } from '../lib/fixtures.js';
import { ensureRunning, startProcess } from '../lib/processes.js';
import { fmt, type Section } from '../lib/report.js';

const CONNECTIONS = 5;
const BATCH = 50;
const TARGET_SHARE = 0.7;
const MESSAGE = {
  from: { name: 'Bench Kayaks', address: 'bookings@bench.test' },
  subject: 'Your booking BK-BENCH is confirmed: Sunset kayak on Saturday 6 June 2026',
  text: 'Hello Ana,\n\nyour booking is confirmed.\nBooking BK-BENCH: Sunset kayak on Saturday 6 June 2026 at 18:30, 2 participant(s).\n\nBench Kayaks',
  html: '<p>Hello Ana,</p>\n<p>your booking is confirmed.</p>\n<p>Booking BK-BENCH: Sunset kayak on Saturday 6 June 2026 at 18:30, 2 participant(s).</p>',
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

export async function mailSection(ctx: BenchContext): Promise<Section> {
  const count = Number(process.env.BENCH_MAIL_MESSAGES ?? 3000);
  const catcher = await startSmtpCatcher();
  try {
    ctx.log(`mail: bare nodemailer loop, ${fmt.int(count)} messages`);
    await bareLoop(catcher.url, Math.min(500, count)); // warm-up: connections, JIT
    const bare = await bareLoop(catcher.url, count);
    ctx.log(`  bare: ${bare.toFixed(0)} msg/s`);

    const accountId = await createBenchAccount(ctx.pool, 'bench mail operator', 'UTC');
    // The backlog falls due together a few seconds from now, once the worker is up; the clock starts at that instant.
    const dueInMs = 15_000;
    await ctx.pool.query(
      `INSERT INTO mail_messages (account_id, kind, dedupe_key, to_address, subject, text_body, html_body, next_attempt_at)
       SELECT $1, 'test', 'bench:' || i, 'worker-' || i || '@example.com', $2, $3, $4, now() + make_interval(secs => $5 / 1000.0)
         FROM generate_series(1, $6) AS i`,
      [accountId, MESSAGE.subject, MESSAGE.text, MESSAGE.html, dueInMs, count],
    );
    const due = Date.now() + dueInMs;
    const worker = startProcess({
      name: 'mail-worker',
      entry: 'apps/mail-worker/dist/main.js',
      cwd: ctx.root,
      logDir: ctx.tmpDir,
      env: {
        DATABASE_URL: ctx.databaseUrl,
        REDIS_URL: ctx.redisUrl,
        QUEUE_PREFIX: 'bench-mail',
        LOG_LEVEL: ctx.logLevel,
        METRICS_PORT: '0',
        SMTP_URL: catcher.url,
        MAIL_FROM: 'bookings@bench.test',
        MAIL_INTERVAL_MS: '20',
        MAIL_BATCH_SIZE: String(BATCH),
        MAIL_SMTP_CONNECTIONS: String(CONNECTIONS),
      },
    });
    try {
      const sentCount = async () =>
        (await ctx.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM mail_messages WHERE account_id = $1 AND status = 'sent'`, [accountId])).rows[0]!.n;
      const early = await sentCount();
      const deadline = due + 600_000;
      let sent = 0;
      while ((sent = await sentCount()) < count) {
        ensureRunning(worker);
        if (Date.now() > deadline) throw new Error(`mail worker: ${sent} of ${count} sent in 10 minutes`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const rate = count / ((Date.now() - due) / 1000);
      const caught = catcher.messages.filter((m) => m.envelope.to[0]?.startsWith('worker-')).length;
      ctx.log(`  worker: ${rate.toFixed(0)} msg/s (${caught} received)`);
      return {
        title: 'Customer e-mails (issue 38)',
        method: [
          `${fmt.int(count)} messages to a local SMTP server (smtp-server, in the bench process). Bare: nodemailer, ${CONNECTIONS} pooled connections, ${BATCH} messages in flight, after a warm-up of 500. Worker: the mail worker's bundle on the same messages (pre-rendered test rows) falling due at one instant, ${CONNECTIONS} connections, batches of ${BATCH}, clock from the due instant to the last row recorded sent (polled every 100 ms).`,
        ],
        rows: [
          { metric: 'bare nodemailer loop: messages/s', ours: `${bare.toFixed(0)} msg/s` },
          {
            metric: 'mail worker: messages/s (claim, send, record, publish the metered event)',
            ours: `${rate.toFixed(0)} msg/s (${fmt.int(caught)} received, ${early} before due)`,
            ratio: `${((rate / bare) * 100).toFixed(0)}% of bare`,
            target: `>= ${TARGET_SHARE * 100}% of bare, each once, none early`,
            pass: rate >= bare * TARGET_SHARE && caught === count && early === 0,
          },
        ],
      };
    } finally {
      await worker.stop();
    }
  } finally {
    await catcher.close();
  }
}
