// The image installs dependencies from the workspaces' package.json files before it copies the sources, so that
// layer is cached; a workspace missing from that list is not installed and its imports fail only in the image.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

function workspaces(): string[] {
  return ['apps', 'packages'].flatMap((folder) =>
    readdirSync(`${repoRoot}/${folder}`)
      .filter((name) => existsSync(`${repoRoot}/${folder}/${name}/package.json`))
      .map((name) => `${folder}/${name}`),
  );
}

describe('Dockerfile', () => {
  it("copies every workspace's package.json before npm ci", () => {
    const dockerfile = readFileSync(`${repoRoot}/Dockerfile`, 'utf8');
    const install = dockerfile.indexOf('RUN npm ci');
    const copied = [...dockerfile.slice(0, install).matchAll(/^COPY (\S+)\/package\.json \1\/$/gm)].map((m) => m[1]);
    expect(copied.sort()).toEqual(workspaces().sort());
  });
});
