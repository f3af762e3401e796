// Files and booking changes (issue 25): uploads of 2 MiB files at 8 at once, in accepted bytes per second, with the
// partner API's peak resident memory while it streams them; and a move of a booking (PATCH booking/{Reference} with
// Date and Time) next to a bare Express handler running the same change-booking use case, at full load and at a steady
// half-ceiling rate.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { createApiKey } from '@backbone/db';
import { ceilingBundle } from '../lib/build.js';
import { startServer, type BenchContext } from '../lib/context.js';
import { createBenchAccount } from '../lib/fixtures.js';
import { describeStatuses, runLoad, summarize } from '../lib/load.js';
import { ensureRunning, peakMemory } from '../lib/processes.js';
import { fmt, type Row, type Section } from '../lib/report.js';
import { API_NODE_OPTIONS } from '../../scripts/dev-env.js';
import { createLifecycleFixture, measureTransition } from './lifecycle.js';

const UPLOAD_BYTES = 2 * 1024 * 1024;
const UPLOAD_CONNECTIONS = 8;
/** Accepted bytes per second of uploads, in MB (10^6 bytes) as the target is written. */
const UPLOAD_TARGET_MB_PER_SEC = 50;
const RSS_LIMIT_MIB = 200;
const UPLOAD_PROCESS = 'partner-api-uploads';

async function measureUploads(ctx: BenchContext): Promise<{ rows: Row[]; problems: string[] }> {
  const accountId = await createBenchAccount(ctx.pool, 'bench files operator', 'UTC');
  const key = await createApiKey(ctx.pool, accountId, { name: 'bench files ota', scopes: ['ota'] });
  const storeDir = path.join(ctx.tmpDir, 'files-store');
  rmSync(storeDir, { recursive: true, force: true });
  // Its own process, so that its peak memory is the uploads' alone; a quota no run reaches.
  const api = await startServer(
    ctx,
    UPLOAD_PROCESS,
    'apps/partner-api/dist/server.js',
    { NODE_OPTIONS: API_NODE_OPTIONS, FILE_STORE: storeDir, FILE_QUOTA_BYTES: String(1e13) },
    '/readyz',
  );
  const problems: string[] = [];
  try {
    // A PDF's first bytes, then random ones (what the type detection reads is the start).
    const body = Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), randomBytes(UPLOAD_BYTES - 15)]);
    const result = await runLoad({
      url: `${api.url}/api/v2/ota/partner/files`,
      connections: UPLOAD_CONNECTIONS,
      durationSec: ctx.durationSec,
      warmupSec: ctx.warmupSec,
      method: 'POST',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="waiver.pdf"' },
      setupRequest: (request) => ({ ...request, body }),
    });
    ensureRunning(api.proc);
    ctx.log(`  uploads: ${summarize(result)}`);
    const accepted = result.statusCounts[201] ?? 0;
    if (accepted !== result.requests || result.errors > 0)
      problems.push(`uploads: unexpected answers: ${describeStatuses(result)}, ${result.errors} socket errors`);
    const mbPerSec = (accepted * UPLOAD_BYTES) / result.durationSec / 1e6;
    const { rows } = await ctx.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM files WHERE account_id = $1 AND status = 'stored'`, [accountId]);
    return {
      rows: [
        {
          metric: `POST files, ${fmt.int(UPLOAD_BYTES)}-byte PDFs, ${UPLOAD_CONNECTIONS} at once: accepted MB/s (201s x size)`,
          ours: `${mbPerSec.toFixed(1)} MB/s (${fmt.int(accepted / result.durationSec)} files/s; ${describeStatuses(result)}; ${fmt.int(rows[0]!.n)} stored rows)`,
          target: `>= ${UPLOAD_TARGET_MB_PER_SEC} MB/s`,
          pass: problems.length === 0 && mbPerSec >= UPLOAD_TARGET_MB_PER_SEC,
        },
        { metric: 'POST files: p50 / p99 ms per 2 MiB upload', ours: `${fmt.ms(result.p50)} / ${fmt.ms(result.p99)}` },
      ],
      problems,
    };
  } finally {
    await api.proc.stop();
    const peak = peakMemory().get(UPLOAD_PROCESS);
    if (peak !== undefined) ctx.log(`  ${UPLOAD_PROCESS} peak RSS ${peak.toFixed(0)} MiB`);
    rmSync(storeDir, { recursive: true, force: true });
  }
}

export async function filesSection(ctx: BenchContext): Promise<Section> {
  const rows: Row[] = [];
  const problems: string[] = [];
  ctx.log('files: uploads');
  const uploads = await measureUploads(ctx);
  rows.push(...uploads.rows);
  problems.push(...uploads.problems);
  const peak = peakMemory().get(UPLOAD_PROCESS) ?? Number.NaN;
  rows.push({
    metric: "POST files: the partner API's peak RSS over the upload runs",
    ours: fmt.mib(peak),
    target: `< ${RSS_LIMIT_MIB} MiB`,
    pass: peak < RSS_LIMIT_MIB,
  });

  ctx.log('files: PATCH booking (move)');
  const fixture = await createLifecycleFixture(ctx, 1);
  const ours = await startServer(ctx, 'partner-api-changes', 'apps/partner-api/dist/server.js', { NODE_OPTIONS: API_NODE_OPTIONS }, '/readyz');
  const ceiling = await startServer(ctx, 'partner-ceiling-changes', ceilingBundle('partner-ceiling'), {
    ACCOUNT_ID: fixture.accountId,
    PARTNER_ID: fixture.partnerId,
    NODE_OPTIONS: API_NODE_OPTIONS,
  });
  const roundSec = Math.max(2, Math.round(ctx.durationSec / 2));
  try {
    const move = await measureTransition(ctx, fixture, 'move', { ours: ours.url, ceiling: ceiling.url }, roundSec);
    ensureRunning(ours.proc, ceiling.proc);
    rows.push(...move.rows);
    problems.push(...move.problems);
  } finally {
    await ours.proc.stop();
    await ceiling.proc.stop();
  }
  return {
    title: 'Files and booking changes (issue 25)',
    rows,
    method: [
      `Uploads: autocannon, ${UPLOAD_CONNECTIONS} connections for ${ctx.durationSec} s after ${ctx.warmupSec} s of warm-up, each request the same ${fmt.int(UPLOAD_BYTES)}-byte PDF as the raw body (Content-Type and Content-Length, a file name in Content-Disposition) to a partner API of its own (bundle, NODE_OPTIONS \`${API_NODE_OPTIONS}\`) whose FILE_STORE is a directory under bench/.tmp on this machine's disk: each 201 comes after the file was fsynced, renamed and its directory fsynced. MB/s = 201s x size / measured seconds. The process's peak RSS is sampled every 200 ms (bench/lib/processes.ts) over its whole life, warm-up included. The stored files are deleted afterwards. No ceiling: there is no bare handler that would stream to disk any differently.`,
      `Move: PATCH booking/{Reference} with the Date and Time of another timeslot of the activity, each request on a confirmed booking of its own (stocked with SQL, spread over 1,440 timeslots of capacity 1,000,000) moved to the timeslot half the list away, so no two requests of a run queue on one timeslot row. Ceiling: bench/ceilings/partner-ceiling.ts's PATCH handler calls the same changeBooking use case (booking lock, both timeslots locked in id order, the change with its booking.updated event and history row in one transaction) without an Idempotency-Key. Rounds and the paced run as in the lifecycle section: ${ctx.connections} connections, 3 alternating rounds of ${roundSec} s, the median ratio; then 5 rounds open-loop at half the ceiling's rate (bench/lib/paced.ts), the median p99.`,
      ...(problems.length > 0 ? [`Unexpected: ${problems.join('; ')}`] : ['Every upload answered 201 and every move 200.']),
    ],
  };
}
