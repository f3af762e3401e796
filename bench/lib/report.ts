// Results: one table per section (metric, ours, ceiling, ratio, target, result), printed to stdout and written
// to bench/RESULTS.md together with the machine, the date and how each figure was measured.
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface Row {
  metric: string;
  ours: string;
  ceiling?: string;
  ratio?: string;
  target?: string;
  /** undefined: informational row without a target. */
  pass?: boolean;
}

export interface Section {
  title: string;
  method: string[];
  rows: Row[];
}

export interface Machine {
  date: string;
  cpus: number;
  cpuModel: string;
  memory: string;
  node: string;
  postgres: string;
  redis: string;
  kernel: string;
}

export function describeMachine(postgres: string, redis: string): Machine {
  let cpuModel = os.cpus()[0]?.model ?? 'unknown';
  try {
    cpuModel = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpuModel;
  } catch {
    // not Linux: os.cpus() is good enough
  }
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    cpus: os.availableParallelism(),
    cpuModel,
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: process.version,
    postgres,
    redis,
    kernel: `${os.type()} ${os.release()}`,
  };
}

export const fmt = {
  int: (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a'),
  ms: (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : 'n/a'),
  pct: (n: number) => (Number.isFinite(n) ? `${(n * 100).toFixed(0)}%` : 'n/a'),
  mib: (n: number) => (Number.isFinite(n) ? `${n.toFixed(0)} MiB` : 'n/a'),
};

function verdict(row: Row): string {
  if (row.pass === undefined) return '';
  return row.pass ? 'PASS' : '**FAIL**';
}

function table(rows: Row[], plain: boolean): string {
  const header = ['Metric', 'Ours', 'Ceiling', 'Ratio', 'Target', 'Result'];
  const body = rows.map((r) => [r.metric, r.ours, r.ceiling ?? '', r.ratio ?? '', r.target ?? '', plain ? verdict(r).replaceAll('*', '') : verdict(r)]);
  if (plain) {
    const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
    return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
  }
  const line = (cells: string[]) => `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...body.map(line)].join('\n');
}

export function renderText(sections: Section[]): string {
  return sections.map((s) => `\n== ${s.title} ==\n${table(s.rows, true)}`).join('\n');
}

export function renderMarkdown(machine: Machine, sections: Section[], preamble: string[], elapsedSec: number): string {
  const targets = sections.flatMap((s) => s.rows.filter((r) => r.pass !== undefined));
  const failed = targets.filter((r) => r.pass === false);
  return [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (bench/run.ts); every run rewrites this file. All figures come from one run.',
    '',
    `- Date: ${machine.date} (run took ${Math.round(elapsedSec / 60)} min)`,
    `- Machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memory} memory, ${machine.kernel}`,
    `- Software: Node.js ${machine.node}, PostgreSQL ${machine.postgres}, Redis ${machine.redis}`,
    `- Targets met: ${targets.length - failed.length} of ${targets.length}${failed.length > 0 ? ` (missed: ${failed.map((r) => r.metric).join('; ')})` : ''}`,
    '',
    ...preamble,
    '',
    ...sections.flatMap((s) => [`## ${s.title}`, '', table(s.rows, false), '', ...s.method.map((m) => `- ${m}`), '']),
  ].join('\n');
}
