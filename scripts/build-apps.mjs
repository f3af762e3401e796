// Bundles each app's entry point, with the workspace and third-party code it imports, into apps/<app>/dist/*.js
// with esbuild. Production and the local stack run these bundles with plain node: no TypeScript loader in the
// process, which saves memory and start-up time. Everything is bundled because a bundle outside a workspace
// would otherwise resolve bare imports from the root node_modules, where another major version may sit
// (eslint's ajv 6 hoisted next to our ajv 8). Optional native add-ons and packages read from disk stay external.
import { build } from 'esbuild';

const apps = [
  { entry: 'apps/partner-api/src/server.ts', out: 'apps/partner-api/dist/server.js' },
  { entry: 'apps/usage-api/src/server.ts', out: 'apps/usage-api/dist/server.js' },
  { entry: 'apps/operator-api/src/server.ts', out: 'apps/operator-api/dist/server.js' },
  { entry: 'apps/metering-worker/src/main.ts', out: 'apps/metering-worker/dist/main.js' },
  { entry: 'apps/webhook-worker/src/main.ts', out: 'apps/webhook-worker/dist/main.js' },
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
    }),
  ),
);
console.log(`[build] bundled ${apps.map((a) => a.out).join(', ')}`);

// The console is a browser app: Vite builds it into apps/console/dist, which the operator API serves under /console.
const { build: viteBuild } = await import('vite');
await viteBuild({ root: 'apps/console', configFile: 'apps/console/vite.config.ts', logLevel: 'warn' });
console.log('[build] built apps/console/dist');
