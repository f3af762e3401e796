// Bundles each app's entry point, with the workspace and third-party code it imports, into apps/<app>/dist/*.js
// with esbuild. Production and the local stack run these bundles with plain node: no TypeScript loader in the
// process, which saves memory and start-up time. Everything is bundled because a bundle outside a workspace
// would otherwise resolve bare imports from the root node_modules, where another major version may sit
// (eslint's ajv 6 hoisted next to our ajv 8). Optional native add-ons and packages read from disk stay external.
//
// Every file lands by rename, whole or not at all: the tests build again (npm start's test) while other tests serve
// the console and start the bundles, and a page that found index.html or its script half-written, or the assets
// folder emptied by the build, failed at random.
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const apps = [
  { entry: 'apps/partner-api/src/server.ts', out: 'apps/partner-api/dist/server.js' },
  { entry: 'apps/usage-api/src/server.ts', out: 'apps/usage-api/dist/server.js' },
  { entry: 'apps/operator-api/src/server.ts', out: 'apps/operator-api/dist/server.js' },
  { entry: 'apps/metering-worker/src/main.ts', out: 'apps/metering-worker/dist/main.js' },
  { entry: 'apps/webhook-worker/src/main.ts', out: 'apps/webhook-worker/dist/main.js' },
  { entry: 'apps/booking-worker/src/main.ts', out: 'apps/booking-worker/dist/main.js' },
  { entry: 'apps/mail-worker/src/main.ts', out: 'apps/mail-worker/dist/main.js' },
  { entry: 'apps/mail-worker/src/smtp-catcher-main.ts', out: 'apps/mail-worker/dist/smtp-catcher.js' },
];

const external = ['pg-native', 'msgpackr-extract', 'swagger-ui-dist', 'cpu-features', 'ssh2'];
// Bundled CommonJS code calls require() for Node built-ins; give the ESM bundle one.
const banner = { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" };

await Promise.all(
  apps.map((app) =>
    build({
      entryPoints: [app.entry],
      outfile: app.out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: true,
      logLevel: 'warning',
      external,
      banner,
      write: false,
    }).then((result) => Promise.all(result.outputFiles.map((file) => replaceFile(file.path, file.contents)))),
  ),
);
console.log(`[build] bundled ${apps.map((a) => a.out).join(', ')}`);

// The console and the booking page are browser apps: Vite builds each into apps/<app>/dist, which the operator API
// serves under /console and the partner API under /book. Vite writes into a folder of its own (emptied first), whose
// files then replace those of dist one by one; files of an earlier build that this one no longer has go last.
// Always production builds: Vite keeps a NODE_ENV it finds set, and a build started from a test run (NODE_ENV test)
// shipped React's development build, 620 KB instead of 380, under other file names.
process.env.NODE_ENV = 'production';
const { build: viteBuild } = await import('vite');
for (const app of ['console', 'booking-page']) {
  const dist = path.resolve(`apps/${app}/dist`);
  const staging = path.resolve(`apps/${app}/.dist-${process.pid}`);
  try {
    await viteBuild({ root: `apps/${app}`, configFile: `apps/${app}/vite.config.ts`, logLevel: 'warn', build: { outDir: staging, emptyOutDir: true } });
    const built = await filesUnder(staging);
    for (const file of built) {
      await mkdir(path.dirname(path.join(dist, file)), { recursive: true });
      await rename(path.join(staging, file), path.join(dist, file));
    }
    const kept = new Set(built);
    for (const file of await filesUnder(dist)) if (!kept.has(file)) await rm(path.join(dist, file), { force: true });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  console.log(`[build] built apps/${app}/dist`);
}

/**
 * Writes `contents` beside `file`, then renames it over `file`.
 * @param {string} file
 * @param {Uint8Array} contents
 */
async function replaceFile(file, contents) {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, file);
}

/**
 * Every file under `dir`, as paths relative to it (none when it does not exist).
 * @param {string} dir
 * @returns {Promise<string[]>}
 */
async function filesUnder(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}
