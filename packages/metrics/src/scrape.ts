// Scraping a process's /metrics in tests (the entry @backbone/metrics/scrape, for test code only): the answer must be
// Prometheus text exposition that parses, and its samples are read by name and labels to compare before and after some traffic. The families (name, type, help) are
// parse-prometheus-text-format's (a port of the Prometheus Python client's parser). That parser skips lines it does not
// understand and loses the labels, _sum and _count of labelled histograms, so every line is also checked here against
// the format's grammar (each sample in a family declared by # TYPE; NaN and Inf in any case, as Prometheus's parser
// takes them), and the samples are read from those checked lines.
import { createRequire } from 'node:module';

// The package ships no types: it takes the exposition text and returns its metric families (prom2json's shape).
const parsePrometheusTextFormat = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => unknown[];

interface ParsedSample {
  value?: string;
  labels?: Record<string, string>;
  buckets?: Record<string, string>;
  count?: string;
  sum?: string;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  metrics: ParsedSample[];
}

export interface Sample {
  /** The sample's own name (a histogram's are <family>_bucket, _sum and _count). */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  contentType: string | null;
  text: string;
  families: MetricFamily[];
  family(name: string): MetricFamily | undefined;
  /** The samples named `name` whose labels include `labels`. */
  samples(name: string, labels?: Record<string, string>): Sample[];
  /** The sum of those samples (0 when there is none). */
  value(name: string, labels?: Record<string, string>): number;
}

const METRIC_NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"';
const SAMPLE_LINE = new RegExp(
  `^(${METRIC_NAME})(?:\\{(?:${LABEL}(?:,${LABEL})*,?)?\\})? (?:[-+]?(?:[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?|[Ii][Nn][Ff]|[Nn][Aa][Nn]))(?: -?[0-9]+)?$`,
);
const TYPE_LINE = new RegExp(`^# TYPE (${METRIC_NAME}) (counter|gauge|histogram|summary|untyped)$`);
const HELP_LINE = new RegExp(`^# HELP ${METRIC_NAME} .*$`);

const LABEL_PAIR = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"/g;
const unescape = (value: string) => value.replace(/\\([\\"n])/g, (_, c: string) => (c === 'n' ? '\n' : c));

function readSample(line: string, name: string): Sample {
  const braceEnd = line.lastIndexOf('}');
  const labels: Record<string, string> = {};
  if (line[name.length] === '{') for (const [, label, value] of line.slice(name.length, braceEnd + 1).matchAll(LABEL_PAIR)) labels[label!] = unescape(value!);
  const valueText = line.slice((line[name.length] === '{' ? braceEnd + 1 : name.length) + 1).split(' ')[0]!;
  return { name, labels, value: Number(valueText.replace(/inf$/i, 'Infinity')) };
}

/** Throws naming the first line that is not valid text exposition. */
export function parseExposition(text: string): { families: MetricFamily[]; samples: Sample[] } {
  const declared = new Map<string, string>();
  const samples: Sample[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line === '') continue;
    const type = TYPE_LINE.exec(line);
    if (type) {
      if (declared.has(type[1]!)) throw new Error(`line ${index + 1}: ${type[1]} declared twice`);
      declared.set(type[1]!, type[2]!);
      continue;
    }
    if (HELP_LINE.test(line)) continue;
    const sample = SAMPLE_LINE.exec(line);
    if (!sample) throw new Error(`line ${index + 1} is not text exposition: ${line}`);
    const name = sample[1]!;
    const family = [name, name.replace(/_(bucket|count|sum)$/, ''), name.replace(/_total$/, '')].find((candidate) => declared.has(candidate));
    if (!family) throw new Error(`line ${index + 1}: ${name} has no # TYPE before it`);
    samples.push(readSample(line, name));
  }
  const families = parsePrometheusTextFormat(text) as MetricFamily[];
  if (families.length !== declared.size) throw new Error(`${declared.size} families declared, ${families.length} parsed`);
  return { families, samples };
}

const matches = (sample: Sample, labels: Record<string, string>) => Object.entries(labels).every(([name, value]) => sample.labels[name] === value);

export function readScrape(text: string, contentType: string | null): Scrape {
  const { families, samples } = parseExposition(text);
  const select = (name: string, labels: Record<string, string> = {}) => samples.filter((sample) => sample.name === name && matches(sample, labels));
  return {
    contentType,
    text,
    families,
    family: (name) => families.find((f) => f.name === name),
    samples: select,
    value: (name, labels) => select(name, labels).reduce((total, sample) => total + sample.value, 0),
  };
}

/** GET `url` (a metrics server's /metrics) and parse the answer; throws unless it is a 200. */
export async function scrapeMetrics(url: string): Promise<Scrape> {
  const response = await fetch(url);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 200)}`);
  return readScrape(text, response.headers.get('content-type'));
}
