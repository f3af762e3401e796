// The configuration table of docs/configuration.md, generated from the apps' environment schemas so that it cannot
// drift from what the processes read: every app that has a src/config.ts exports it as `<app>/config`, and its one
// schema object (type 'object' with properties) is what loadConfig parses at start. `npm run docs:config` rewrites the
// table between the markers; scripts/test/configuration-doc.test.ts fails while the committed file differs.
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EnvSchema } from '@backbone/config';
import { repoRoot } from '../dev-env.js';

export const CONFIGURATION_DOC = path.join(repoRoot, 'docs', 'configuration.md');
export const REGENERATE_COMMAND = 'npm run docs:config';
const BEGIN = `<!-- generated: ${REGENERATE_COMMAND} (scripts/docs/configuration-table.ts) renders this table from the apps' config schemas; edit those, not this -->`;
const END = '<!-- end of generated -->';

type Variable = EnvSchema['properties'][string];

export interface ProcessSchema {
  /** The process's name: its app's folder, as npm start and docker-compose.yml name it. */
  process: string;
  schema: EnvSchema;
}

function isEnvSchema(value: unknown): value is EnvSchema {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { type?: unknown; properties?: unknown };
  return candidate.type === 'object' && typeof candidate.properties === 'object' && candidate.properties !== null;
}

/** Every app's environment schema, by process, in the folders' order. */
export async function loadProcessSchemas(): Promise<ProcessSchema[]> {
  const appsDir = path.join(repoRoot, 'apps');
  const found: ProcessSchema[] = [];
  for (const app of readdirSync(appsDir).sort()) {
    if (!existsSync(path.join(appsDir, app, 'src', 'config.ts'))) continue;
    const manifest = JSON.parse(readFileSync(path.join(appsDir, app, 'package.json'), 'utf8')) as { name: string; exports?: Record<string, string> };
    if (manifest.exports?.['./config'] !== './src/config.ts') {
      throw new Error(
        `apps/${app} has a src/config.ts but does not export it as "./config" in its package.json: add it, so the configuration table includes ${app}.`,
      );
    }
    const module = (await import(`${manifest.name}/config`)) as Record<string, unknown>;
    const schemas = Object.values(module).filter(isEnvSchema);
    if (schemas.length !== 1) throw new Error(`${manifest.name}/config exports ${schemas.length} environment schemas; the table expects exactly one.`);
    found.push({ process: app, schema: schemas[0]! });
  }
  return found;
}

const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
const code = (text: string) => `\`${text}\``;

function typeOf(variable: Variable): string {
  if (variable.enum) return `one of ${variable.enum.map((value) => code(String(value))).join(', ')}`;
  const bounds =
    variable.minimum !== undefined && variable.maximum !== undefined
      ? `, ${variable.minimum} to ${variable.maximum}`
      : variable.minimum !== undefined
        ? `, at least ${variable.minimum}`
        : variable.maximum !== undefined
          ? `, at most ${variable.maximum}`
          : '';
  const pattern = variable.pattern ? ` matching ${code(variable.pattern)}` : '';
  return `${variable.type}${bounds}${pattern}`;
}

function defaultOf(variable: Variable, required: boolean): string {
  const value = variable.default;
  if (value === undefined) return required ? 'required' : 'none';
  if (value === '') return 'empty';
  return code(typeof value === 'string' ? value : JSON.stringify(value));
}

/** The Markdown table: one row per variable and meaning; processes that read it alike share a row. */
export function renderConfigurationTable(processes: ProcessSchema[]): string {
  const readers = new Map<string, Array<{ process: string; variable: Variable; required: boolean }>>();
  for (const { process, schema } of processes) {
    for (const [name, variable] of Object.entries(schema.properties)) {
      const list = readers.get(name) ?? [];
      list.push({ process, variable, required: schema.required?.includes(name) ?? false });
      readers.set(name, list);
    }
  }
  const everyProcess = processes.length;
  const rows = ['| variable | read by | type | default | description |', '|---|---|---|---|---|'];
  for (const name of [...readers.keys()].sort()) {
    // Processes that give the variable the same type, bounds and description share a row; their defaults may differ
    // (each app's own port, the workers' longer shutdown).
    const groups = new Map<string, Array<{ process: string; variable: Variable; required: boolean }>>();
    for (const reader of readers.get(name)!) {
      const { default: _default, ...meaning } = reader.variable;
      const key = JSON.stringify(meaning, Object.keys(meaning).sort());
      groups.set(key, [...(groups.get(key) ?? []), reader]);
    }
    for (const group of groups.values()) {
      const first = group[0]!;
      const readBy = group.length === everyProcess ? 'every process' : group.map((reader) => reader.process).join(', ');
      const defaults = new Set(group.map((reader) => defaultOf(reader.variable, reader.required)));
      const defaultCell =
        defaults.size === 1
          ? defaultOf(first.variable, first.required)
          : group.map((reader) => `${defaultOf(reader.variable, reader.required)} (${reader.process})`).join(', ');
      rows.push(`| ${code(name)} | ${readBy} | ${cell(typeOf(first.variable))} | ${cell(defaultCell)} | ${cell(first.variable.description ?? '')} |`);
    }
  }
  return rows.join('\n');
}

/** The document with its generated part replaced by `table`. */
export function withTable(document: string, table: string): string {
  const begin = document.indexOf(BEGIN);
  const end = document.indexOf(END);
  if (begin === -1 || end < begin) throw new Error(`${path.relative(repoRoot, CONFIGURATION_DOC)} lacks the markers of its generated table:\n${BEGIN}\n${END}`);
  return `${document.slice(0, begin)}${BEGIN}\n\n${table}\n\n${document.slice(end)}`;
}

/** docs/configuration.md as it should be. */
export async function renderConfigurationDoc(): Promise<string> {
  return withTable(readFileSync(CONFIGURATION_DOC, 'utf8'), renderConfigurationTable(await loadProcessSchemas()));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(CONFIGURATION_DOC, await renderConfigurationDoc());
  console.log(`wrote ${path.relative(repoRoot, CONFIGURATION_DOC)}`);
}
