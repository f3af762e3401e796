// Runs the OCTO maintainers' validator (a copy of octotravel/validator, kept outside this repository: OCTO_VALIDATOR_DIR,
// else ../shared/octo-validator beside the checkout) against a running `npm start`, three times: core OCTO, strict
// (warnings fail too) and strict with octo/pricing. Not part of `npm test`: it needs the running stack and the
// validator's own dependencies (`npm ci` in its directory).
//
// The validator books random unit counts up to an option's maxUnits without reading vacancies and makes about 15
// bookings a run, so each run gets a fresh account of its own made with the admin CLI: a START_TIME and an
// OPENING_HOURS product with room for every run, and a sandbox (test) key with a rate limit of its own (three runs
// back to back are more than a reseller's default budget, and a 429 would show as a failed scenario).
//
// npm run octo:validate            exit 0 only when all three runs pass; OCTO_VALIDATE_URL overrides the stack's URL.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { readDevState, repoRoot } from './dev-env.js';

const env = process.env;

function fail(message: string): never {
  console.error(`octo-validate: ${message}`);
  process.exit(2);
}

function validatorDir(): string {
  const candidates = env.OCTO_VALIDATOR_DIR
    ? [path.resolve(env.OCTO_VALIDATOR_DIR)]
    : [path.resolve(repoRoot, '../shared/octo-validator'), path.resolve(repoRoot, '../../shared/octo-validator')];
  const dir = candidates.find((candidate) => existsSync(path.join(candidate, 'run.ts')));
  if (!dir) fail(`no validator at ${candidates.join(' or ')}; set OCTO_VALIDATOR_DIR`);
  if (!existsSync(path.join(dir, 'node_modules'))) fail(`the validator's dependencies are missing: run npm ci in ${dir}`);
  return dir;
}

/** One admin CLI command's JSON answer (the same use cases the console calls). */
function admin(...args: string[]): Record<string, unknown> {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) fail(`admin ${args[0]} failed: ${result.stderr.trim() || result.stdout.trim()}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** A fresh account with one product of each availability type, room for a run, and a test ota key; its key. */
function setUpAccount(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);
  const account = admin(
    'create-account',
    ...['--name', `OCTO validator ${stamp}`, '--time-zone', 'Europe/Lisbon', '--email', 'octo@example.com'],
    ...['--phone', '+351210000000', '--website', 'https://example.com'],
  );
  const accountId = String(account.ID);
  const from = isoDate(new Date());
  const to = isoDate(new Date(Date.now() + 40 * 86_400_000));
  const common = ['--account', accountId, '--price', '2500', '--currency', 'EUR', '--max-participants', '10'];
  const tour = admin('create-activity', ...common, '--name', 'Harbour tour', '--duration', '60');
  admin(
    'generate-timeslots',
    ...['--account', accountId, '--activity', String(tour.ActivityID), '--from', from, '--to', to],
    ...['--days', 'mon,tue,wed,thu,fri,sat,sun', '--times', '10:00,14:00', '--capacity', '500'],
  );
  // Closed on Sundays: the calendar has closed days with the product's opening hours.
  const museum = admin('create-activity', ...common, '--name', 'Museum day', '--duration', '540', '--opening-hours', '09:00-18:00');
  admin(
    'generate-timeslots',
    ...['--account', accountId, '--activity', String(museum.ActivityID), '--from', from, '--to', to],
    ...['--days', 'mon,tue,wed,thu,fri,sat', '--capacity', '500'],
  );
  // A sandbox key, as the validator's README asks: its bookings take test places only.
  const key = admin('create-key', '--account', accountId, '--name', 'OCTO validator', '--scopes', 'ota', '--test');
  admin('set-key-limit', '--account', accountId, '--key', String(key.ID), '--per-second', '500', '--burst', '1000');
  return String(key.Secret);
}

const RUNS: { name: string; env: Record<string, string> }[] = [
  { name: 'core', env: {} },
  { name: 'strict', env: { OCTO_STRICT: '1' } },
  { name: 'strict octo/pricing', env: { OCTO_STRICT: '1', OCTO_CAPABILITIES: 'octo/pricing' } },
];

function main(): void {
  const dir = validatorDir();
  const base = env.OCTO_VALIDATE_URL ?? readDevState()?.baseUrl ?? fail('no running stack: start `npm start` or set OCTO_VALIDATE_URL');
  const results: string[] = [];
  let failed = false;
  for (const run of RUNS) {
    // A fresh account per run: the runs' bookings never crowd one another.
    const key = setUpAccount();
    console.log(`\n=== ${run.name}`);
    const result = spawnSync('npx', ['tsx', 'run.ts'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
      env: { ...env, ...run.env, OCTO_URL: `${base.replace(/\/$/, '')}/octo`, OCTO_KEY: key },
    });
    process.stdout.write(result.stdout);
    const summary = result.stdout.trim().split('\n').at(-1) ?? '';
    results.push(`${run.name}: exit ${result.status}, ${summary.replace(/^octo-validator: /, '')}`);
    if (result.status !== 0) failed = true;
  }
  console.log('\n' + results.join('\n'));
  process.exit(failed ? 1 : 0);
}

main();
