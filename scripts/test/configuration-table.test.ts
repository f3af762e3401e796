// docs/configuration.md's table is generated from the apps' config schemas: this fails while the committed file is not
// what `npm run docs:config` would write, so a variable added, removed or redescribed cannot leave the doc behind.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_DOC, loadProcessSchemas, REGENERATE_COMMAND, renderConfigurationDoc, renderConfigurationTable } from '../docs/configuration-table.js';

describe('docs/configuration.md', () => {
  it('holds the table the config schemas give', async () => {
    const committed = readFileSync(CONFIGURATION_DOC, 'utf8');
    expect(committed, `docs/configuration.md is stale: run \`${REGENERATE_COMMAND}\` and commit the result`).toBe(await renderConfigurationDoc());
  });

  it('covers every process that parses a configuration, and every variable each one reads', async () => {
    const processes = await loadProcessSchemas();
    expect(processes.map((p) => p.process)).toEqual(expect.arrayContaining(['metering-worker', 'operator-api', 'partner-api', 'usage-api', 'webhook-worker']));
    const table = renderConfigurationTable(processes);
    for (const { process, schema } of processes) {
      for (const name of Object.keys(schema.properties)) {
        const rows = table.split('\n').filter((row) => row.startsWith(`| \`${name}\` |`));
        expect(
          rows.some((row) => row.split(' | ')[1] === 'every process' || row.split(' | ')[1]!.split(', ').includes(process)),
          `${name} of ${process}`,
        ).toBe(true);
      }
    }
  });
});
