// The Prometheus files in deploy/ checked as well as can be without promtool: they parse as YAML; every alerting rule
// has the shape Prometheus requires (a name, a PromQL expression with balanced brackets and quotes, a valid `for`,
// a severity and a summary) and names only metrics that exist; the alerts the issue asks for are there; the scrape
// configuration loads the rules and scrapes every service of docker-compose.yml on its metrics port; and nginx
// does not route /metrics.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { collectDisabledWebhookEndpoints, collectOutboxMetrics, collectQueueMetrics, registry, startMetricsServer } from '../src/index.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const read = (path: string) => readFileSync(`${repoRoot}/${path}`, 'utf8');

interface Rule {
  alert?: unknown;
  record?: unknown;
  expr?: unknown;
  for?: unknown;
  labels?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

const alerts = parse(read('deploy/alerts.yml')) as { groups: Array<{ name: string; rules: Rule[] }> };
const rules = alerts.groups.flatMap((group) => group.rules);

/** Every metric name the services can expose, the scrape-time gauges and the process metrics included. */
async function exposedMetricNames(): Promise<Set<string>> {
  const removers = [
    collectQueueMetrics([]),
    collectOutboxMetrics(async () => ({ byType: {}, oldestAgeSeconds: 0 })),
    collectDisabledWebhookEndpoints(async () => 0),
  ];
  // The process metrics join the registry with the first metrics server.
  const server = await startMetricsServer({ port: 0, host: '127.0.0.1', registry });
  try {
    const names = new Set<string>();
    for (const metric of await registry.getMetricsAsJSON()) {
      names.add(metric.name);
      if (String(metric.type) === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${metric.name}${suffix}`);
    }
    return names;
  } finally {
    for (const remove of removers) remove();
    await server.close();
  }
}

function bracketsBalance(expr: string): boolean {
  const open: string[] = [];
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  let quote: string | null = null;
  for (let i = 0; i < expr.length; i++) {
    const c = expr[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if ('([{'.includes(c)) open.push(c);
    else if (c in pairs && open.pop() !== pairs[c]) return false;
  }
  return open.length === 0 && quote === null;
}

describe('deploy/alerts.yml', () => {
  it('has groups with unique names, each rule an alert of the shape Prometheus requires', () => {
    expect(alerts.groups.length).toBeGreaterThan(0);
    expect(new Set(alerts.groups.map((group) => group.name)).size).toBe(alerts.groups.length);
    for (const rule of rules) {
      expect(
        Object.keys(rule).every((key) => ['alert', 'expr', 'for', 'keep_firing_for', 'labels', 'annotations'].includes(key)),
        JSON.stringify(rule),
      ).toBe(true);
      expect(rule.alert).toMatch(/^[A-Z][A-Za-z0-9]+$/);
      expect(typeof rule.expr === 'string' && rule.expr.trim().length > 0).toBe(true);
      expect(bracketsBalance(rule.expr as string), `${rule.alert as string}: ${rule.expr as string}`).toBe(true);
      if (rule.for !== undefined) expect(rule.for).toMatch(/^\d+[smhd]$/);
      expect(['page', 'ticket']).toContain(rule.labels?.severity);
      expect(typeof rule.annotations?.summary === 'string' && rule.annotations.summary.length > 0).toBe(true);
      // Templates are Go templates: every {{ opened is closed.
      for (const text of Object.values(rule.annotations ?? {})) expect(String(text).split('{{').length).toBe(String(text).split('}}').length);
    }
    expect(new Set(rules.map((rule) => rule.alert)).size).toBe(rules.length);
  });

  it('names only metrics the services expose', async () => {
    const exposed = await exposedMetricNames();
    const used = new Set(rules.flatMap((rule) => (rule.expr as string).match(/\bbackbone_[a-z0-9_]+/g) ?? []));
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((name) => !exposed.has(name))).toEqual([]);
  });

  it('covers 5xx rate, queue age, outbox backlog, disabled webhook endpoints, the rate limiter failing open, a target down and folds stopped', () => {
    const exprOf = (needle: RegExp) => rules.filter((rule) => needle.test(rule.expr as string));
    expect(exprOf(/backbone_http_requests_total\{status=~"5\.\."\}/)).toHaveLength(1);
    expect(exprOf(/backbone_queue_oldest_job_age_seconds/)).toHaveLength(1);
    expect(exprOf(/backbone_outbox_(backlog|oldest_event_age_seconds)/)).toHaveLength(1);
    expect(exprOf(/backbone_webhook_endpoints_disabled/)).toHaveLength(1);
    expect(exprOf(/backbone_rate_limiter_failed_open_total/)).toHaveLength(1);
    expect(exprOf(/\bup == 0/)).toHaveLength(1);
    // Entries written with no fold succeeding, including when no folder runs at all (no folded series to compare with).
    expect(exprOf(/backbone_usage_entries_written_total.*\bunless\b.*backbone_usage_folds_total\{result="folded"\}/)).toHaveLength(1);
  });
});

describe('deploy/prometheus.yml and docker-compose.yml', () => {
  const prometheus = parse(read('deploy/prometheus.yml')) as {
    rule_files: string[];
    scrape_configs: Array<{ job_name: string; dns_sd_configs?: Array<{ names: string[]; port: number }> }>;
  };
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, { command?: string[]; environment?: Record<string, string>; volumes?: string[] }>;
  };

  it('loads the rules file that compose mounts', () => {
    expect(prometheus.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
    expect(compose.services.prometheus?.volumes).toContain('./deploy/alerts.yml:/etc/prometheus/alerts.yml:ro');
    expect(compose.services.prometheus?.volumes).toContain('./deploy/prometheus.yml:/etc/prometheus/prometheus.yml:ro');
  });

  it('scrapes every node service of compose on its METRICS_PORT', () => {
    const nodeServices = Object.entries(compose.services).filter(([, service]) => service.command?.[0] === 'node');
    expect(nodeServices.map(([name]) => name).sort()).toEqual([
      'booking-worker',
      'mail-worker',
      'metering-worker',
      'operator-api',
      'partner-api',
      'usage-api',
      'webhook-worker',
    ]);
    for (const [name, service] of nodeServices) {
      const job = prometheus.scrape_configs.find((config) => config.job_name === name);
      expect(job, name).toBeDefined();
      expect(job!.dns_sd_configs?.[0]).toMatchObject({ names: [name], port: Number(service.environment?.METRICS_PORT) });
    }
  });

  it('nginx answers /metrics with a 404 instead of routing it', () => {
    expect(read('deploy/nginx.conf')).toMatch(/location ~\* \^\/metrics\/\?\$ \{ return 404; \}/);
  });
});
