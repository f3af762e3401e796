// The per-day usage chart, one line per meter, drawn by uPlot (a small canvas chart library) at the container's width.
// Hovering (or tapping) a day shows that day's value of each meter in the legend.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { UsageSummary } from '@backbone/contracts/browser';

const number = new Intl.NumberFormat(undefined, { maximumFractionDigits: 6 });
const COLOURS = ['#1f5fbf', '#c2410c', '#15803d', '#7e22ce', '#b91c1c', '#0e7490', '#a16207', '#be185d'];

export function UsageChart({ summary }: { summary: UsageSummary }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const series = summary.Series ?? [];
    const meters = summary.Meters.map((m) => m.Meter);
    const xs = series.map((day) => Date.parse(`${day.Date}T00:00:00Z`) / 1000);
    const ys = meters.map((meter) => series.map((day) => day.Meters.find((m) => m.Meter === meter)?.TotalUsage ?? 0));
    const options: uPlot.Options = {
      width: element.clientWidth,
      height: 260,
      // Days are local calendar days: label them in UTC so that no browser zone moves them.
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      series: [
        { label: 'Day', value: (_u, ts) => (ts == null ? '—' : new Date(ts * 1000).toISOString().slice(0, 10)) },
        ...meters.map((meter, i) => ({
          label: meter,
          stroke: COLOURS[i % COLOURS.length],
          width: 2,
          points: { show: series.length <= 31 },
          value: (_u: uPlot, v: number | null) => (v == null ? '—' : number.format(v)),
        })),
      ],
      // One tick per day at most, labelled with the date alone (the series has no time of day).
      axes: [
        {
          incrs: [86_400, 2 * 86_400, 7 * 86_400, 14 * 86_400, 28 * 86_400],
          values: (_u, splits) => splits.map((ts) => new Date(ts * 1000).toISOString().slice(5, 10)),
        },
        { size: 60 },
      ],
      legend: { live: true },
      cursor: { points: { size: 8 } },
    };
    const chart = new uPlot(options, [xs, ...ys], element);
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: 260 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [summary]);
  return <div ref={container} className="chart" role="img" aria-label="Usage per day by meter" />;
}
