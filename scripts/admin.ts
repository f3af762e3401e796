// The operator's admin CLI: `npm run admin -- <command> [--option value ...]`. Every command prints JSON on stdout
// with the API's PascalCase members (errors as {"Error": ...} on stderr, exit code 1), so it can be scripted.
import { parseArgs } from 'node:util';
import { createPool, migrate } from '@backbone/db';
import { resolveDatabaseUrl, resolveQueuePrefix, resolveRedisUrl } from './dev-env.js';
import type { AdminCommand } from './admin/command.js';
import { operatorCommands } from './admin/operator.commands.js';
import { partnerCommands } from './admin/partner.commands.js';
import { queueCommands } from './admin/queue.commands.js';
import { webhookCommands } from './admin/webhook.commands.js';

const commands: Record<string, AdminCommand> = { ...partnerCommands, ...operatorCommands, ...queueCommands, ...webhookCommands };

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(22)} ${c.summary}\n${' '.repeat(25)}${c.usage}`);
  return `Usage: npm run admin -- <command> [options]\n\nCommands:\n${lines.join('\n')}`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? commands[name] : undefined;
  if (!command) {
    process.stderr.write(`${usage()}\n`);
    return name && name !== 'help' && name !== '--help' ? 1 : 0;
  }
  const { values } = parseArgs({ args: rest, options: command.options, allowPositionals: false, strict: true });
  const databaseUrl = resolveDatabaseUrl();
  await migrate({ databaseUrl });
  const pool = createPool({ connectionString: databaseUrl, max: 2, applicationName: 'backbone-admin' });
  try {
    const result = await command.run(values as Record<string, string | boolean | string[] | undefined>, {
      pool,
      redisUrl: resolveRedisUrl(),
      queuePrefix: resolveQueuePrefix(),
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await pool.end();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`${JSON.stringify({ Error: error.message })}\n`);
    process.exit(1);
  },
);
