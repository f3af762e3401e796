// The bench runs what production runs: the apps as the esbuild bundles of `npm run build` under plain node. The
// ceilings are bundled the same way (into bench/.tmp/ceilings), so both sides start with the same runtime.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';

export const CEILINGS = ['partner-ceiling', 'usage-ceiling', 'operator-ceiling', 'octo-ceiling', 'shop-ceiling', 'bullmq-noop-worker'] as const;

export async function buildEverything(root: string, tmpDir: string): Promise<void> {
  const result = spawnSync(process.execPath, ['scripts/build-apps.mjs'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run build failed:\n${result.stdout}${result.stderr}`);
  await Promise.all(
    CEILINGS.map((name) =>
      build({
        entryPoints: [path.join(root, 'bench', 'ceilings', `${name}.ts`)],
        outfile: path.join(tmpDir, 'ceilings', `${name}.js`),
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        logLevel: 'warning',
        external: ['pg-native', 'msgpackr-extract', 'swagger-ui-dist', 'cpu-features', 'ssh2'],
        // Bundled CommonJS code calls require() for Node built-ins; give the ESM bundle one (as scripts/build-apps.mjs does).
        banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
      }),
    ),
  );
}

/** Where the bundle of a ceiling is, relative to the repository root. */
export function ceilingBundle(name: (typeof CEILINGS)[number]): string {
  return path.join('bench', '.tmp', 'ceilings', `${name}.js`);
}
