// The customers' booking page (issue 37): the JavaScript its first load ships, gzipped, and its first contentful
// paint on a phone (390 px) in headless Chromium, through the real partner API serving the built page under /book.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { saveBookingPage } from '@backbone/db';
import { startServer, type BenchContext } from '../lib/context.js';
import { addDays, createBenchAccount, insertActivity, insertTimeslots } from '../lib/fixtures.js';
import { percentile } from '../lib/load.js';
import { fmt, type Row, type Section } from '../lib/report.js';
import { API_NODE_OPTIONS } from '../../scripts/dev-env.js';
import { firstLoadScripts } from './console.js';

// docs/booking-page.md: the page's budget.
const JS_TARGET_KIB = 60;
const FCP_TARGET_MS = 1000;
const COLD_LOADS = 7;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function measureJavaScript(distDir: string) {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const files = firstLoadScripts(html).map((src) => {
    // The page is served under /book: /book/assets/x.js is dist/assets/x.js.
    const content = readFileSync(path.join(distDir, src.replace(/^\/book\//, '')));
    return { file: src, raw: content.length, gzip9: gzipSync(content, { level: 9 }).length };
  });
  if (files.length === 0) throw new Error('the built index.html loads no script: is apps/booking-page/dist built?');
  return { files, raw: files.reduce((t, f) => t + f.raw, 0), gzip9: files.reduce((t, f) => t + f.gzip9, 0) };
}

/** An account whose page is on, with one activity: the page's slug (its own each run) and the activity's name. */
async function createPageAccount(ctx: BenchContext): Promise<{ slug: string; activityName: string }> {
  const accountId = await createBenchAccount(ctx.pool, 'bench booking page operator', 'Europe/Berlin');
  const activity = await insertActivity(ctx.pool, accountId, 'Kayak tour (booking page)');
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  await insertTimeslots(ctx.pool, accountId, activity.id, addDays(today, 2), 10, ['09:00', '14:00'], 20);
  const slug = `bench-page-${accountId.slice(0, 8)}`;
  const saved = await saveBookingPage(ctx.pool, accountId, { enabled: true, slug });
  if (typeof saved === 'string') throw new Error(`booking page: ${saved}`);
  return { slug, activityName: 'Kayak tour (booking page)' };
}

interface ColdLoad {
  fcp: number;
  /** When the first activity was on the page (ms since navigation start), for comparison. */
  listed: number;
}

async function coldLoad(browser: Browser, url: string, { slug, activityName }: { slug: string; activityName: string }): Promise<ColdLoad> {
  // A fresh context each time: no cache.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    await page.goto(`${url}/book/${slug}`);
    await page.getByRole('link', { name: activityName, exact: true }).waitFor({ timeout: 30_000 });
    const listed = await page.evaluate(() => performance.now());
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, undefined, { timeout: 10_000 });
    const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]!.startTime);
    return { fcp, listed };
  } finally {
    await context.close();
  }
}

export async function bookingPageSection(ctx: BenchContext): Promise<Section> {
  const distDir = path.join(ctx.root, 'apps', 'booking-page', 'dist');
  const js = measureJavaScript(distDir);
  const rows: Row[] = [
    {
      metric: `Booking page JavaScript on first load, gzipped (${js.files.length} file${js.files.length === 1 ? '' : 's'})`,
      ours: `${(js.gzip9 / 1024).toFixed(1)} KiB at gzip -9 (${(js.raw / 1024).toFixed(1)} KiB raw)`,
      target: `<= ${JS_TARGET_KIB} KiB`,
      pass: js.gzip9 <= JS_TARGET_KIB * 1024,
    },
  ];
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: install Debian's (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  const account = await createPageAccount(ctx);
  const api = await startServer(
    ctx,
    'partner-api',
    'apps/partner-api/dist/server.js',
    { NODE_OPTIONS: API_NODE_OPTIONS, BOOKING_PAGE_DIR: distDir },
    '/readyz',
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const loads: ColdLoad[] = [];
  try {
    // One load first, not counted: the API's first answers (and PostgreSQL's plans) are not what a customer meets.
    await coldLoad(browser, api.url, account);
    for (let i = 0; i < COLD_LOADS; i++) loads.push(await coldLoad(browser, api.url, account));
  } finally {
    await browser.close();
    await api.proc.stop();
  }
  const fcps = loads.map((l) => l.fcp).sort((a, b) => a - b);
  const listed = loads.map((l) => l.listed).sort((a, b) => a - b);
  rows.push({
    metric: `/book/{Slug} at 390 px: first contentful paint, median / worst of ${COLD_LOADS} cold loads (ms)`,
    ours: `${fmt.ms(percentile(fcps, 50))} / ${fmt.ms(fcps.at(-1)!)} (each: ${loads.map((l) => fmt.ms(l.fcp)).join(', ')})`,
    target: `< ${FCP_TARGET_MS} ms`,
    pass: percentile(fcps, 50) < FCP_TARGET_MS,
  });
  rows.push({
    metric: '/book/{Slug} at 390 px: the activities listed, median / worst (ms, for comparison)',
    ours: `${fmt.ms(percentile(listed, 50))} / ${fmt.ms(listed.at(-1)!)}`,
  });
  return {
    title: 'Booking page (issue 37)',
    rows,
    method: [
      `JavaScript: the scripts and \`modulepreload\` links of apps/booking-page/dist/index.html as \`npm run build\` makes it (${js.files.map((f) => `${f.file} ${(f.raw / 1024).toFixed(1)} KiB raw`).join(', ')}), gzipped with node:zlib at level 9; the partner API sends them gzipped.`,
      `First contentful paint: Debian's Chromium (${CHROMIUM}, headless, --no-sandbox) driven by playwright-core at 390x844 (mobile, touch) on this machine; the partner API (its esbuild bundle under plain node, BOOKING_PAGE_DIR ${path.relative(ctx.root, distDir)}) over an account whose page is on, with one activity. Each load opens a fresh browser context (empty cache) and goes to /book/${account.slug}; FCP is the Performance API's \`first-contentful-paint\` entry. One unmeasured load first, then ${COLD_LOADS} measured; the median is judged, the worst shown. "Listed" is when the activity's link was found, after the shop API answered the page.`,
    ],
  };
}
