// Scraping a process's /metrics in tests: the answer must be Prometheus text exposition that parses, and its samples
// are read by name and labels to compare before and after some traffic. Parsing is parse-prometheus-text-format's
// (a port of the Prometheus Python client's parser); it skips lines it does not understand, so every line is also
// checked against the format's grammar here, and every sample must belong to a family declared by # TYPE.
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

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

export interface Scrape {
  contentType: string | null;
  text: string;
  families: MetricFamily[];
  family(name: string): MetricFamily | undefined;
  /**
   * The sum of the samples of `name` whose labels include `labels` (0 when there is none). For a histogram, `name`
   * may end in _count or _sum.
   */
  value(name: string, labels?: Record<string, string>): number;
}

const METRIC_NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"';
const SAMPLE_LINE = new RegExp(`^(${METRIC_NAME})(?:\\{(?:${LABEL}(?:,${LABEL})*,?)?\\})? (?:[-+]?(?:[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?|Inf|NaN))(?: -?[0-9]+)?$`);
const TYPE_LINE = new RegExp(`^# TYPE (${METRIC_NAME}) (counter|gauge|histogram|summary|untyped)$`);
const HELP_LINE = new RegExp(`^# HELP ${METRIC_NAME} .*$`);

/** Throws naming the first line that is not valid text exposition. */
export function parseExposition(text: string): MetricFamily[] {
  const declared = new Map<string, string>();
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
  }
  const families = parsePrometheusTextFormat(text) as MetricFamily[];
  if (families.length !== declared.size) throw new Error(`${declared.size} families declared, ${families.length} parsed`);
  return families;
}

const matches = (sample: ParsedSample, labels: Record<string, string>) => Object.entries(labels).every(([name, value]) => sample.labels?.[name] === value);

export function readScrape(text: string, contentType: string | null): Scrape {
  const families = parseExposition(text);
  const family = (name: string) => families.find((f) => f.name === name);
  return {
    contentType,
    text,
    families,
    family,
    value(name, labels = {}) {
      const histogramPart = /_(count|sum)$/.exec(name);
      const found = family(name) ?? (histogramPart ? family(name.slice(0, -histogramPart[0].length)) : undefined);
      if (!found) return 0;
      const field = found.name === name ? 'value' : (histogramPart![1] as 'count' | 'sum');
      return found.metrics.filter((sample) => matches(sample, labels)).reduce((total, sample) => total + Number(sample[field] ?? 0), 0);
    },
  };
}

/** GET `url` (a metrics server's /metrics) and parse the answer; throws unless it is a 200. */
export async function scrapeMetrics(url: string): Promise<Scrape> {
  const response = await fetch(url);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 200)}`);
  return readScrape(text, response.headers.get('content-type'));
}
