// `npm test`'s checks before the tests: the typecheck, the lint and prettier, two at a time. Each is one process on one
// core (tsc, eslint and prettier do not spread over cores), so on the 2-core machines CI runs on, side by side they
// take the time of the longest instead of the sum. Each one's output is printed whole when it ends, not interleaved;
// the exit code is 1 when any failed.
import { spawn } from 'node:child_process';
import os from 'node:os';

const checks = [
  { name: 'lint', command: 'npm', args: ['run', '--silent', 'lint'] },
  { name: 'typecheck', command: 'npm', args: ['run', '--silent', 'typecheck'] },
  { name: 'prettier', command: 'npx', args: ['prettier', '--check', '.'] },
];
const parallel = Math.max(1, Math.min(checks.length, os.availableParallelism()));

/** @param {{ name: string; command: string; args: string[] }} check @returns {Promise<boolean>} */
function run(check) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(check.command, check.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(`\n[${check.name}] ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds} s\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(code === 0);
    });
  });
}

const queue = [...checks];
const results = [];
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let check = queue.shift(); check; check = queue.shift()) results.push(await run(check));
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
