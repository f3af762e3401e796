// The read plan behind every summary: whatever the period, its spans cover it exactly once, and each span has the
// alignment its table needs (whole UTC days for the daily rollups, whole UTC hours for the hourly ones).
import { describe, expect, it } from 'vitest';
import { dailyReadRanges, localDaysOf, planUsageRead, resolveSummaryPeriod, type Span } from '@backbone/domain';

const spansOf = (start: number, end: number): Array<[string, Span]> => {
  const plan = planUsageRead(start, end);
  return [
    ['raw', plan.rawBefore],
    ['hourly', plan.hoursBefore],
    ['daily', plan.days],
    ['hourly', plan.hoursAfter],
    ['raw', plan.rawAfter],
  ];
};

describe('planUsageRead', () => {
  it('partitions any range into aligned, contiguous spans', () => {
    // A fixed pseudo-random walk, so a failure reproduces.
    let seed = 42;
    const next = (limit: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % limit;
    };
    for (let i = 0; i < 2000; i++) {
      const start = 1_700_000_000 + next(400 * 86_400) - 200 * 86_400;
      const end = start + 1 + next([60, 3600, 7200, 86_400, 3 * 86_400, 400 * 86_400][i % 6]!);
      const spans = spansOf(start, end);
      let cursor = start;
      for (const [source, span] of spans) {
        expect(span.from).toBe(cursor);
        expect(span.to).toBeGreaterThanOrEqual(span.from);
        if (span.to > span.from && source === 'hourly') expect([span.from % 3600, span.to % 3600]).toEqual([0, 0]);
        if (span.to > span.from && source === 'daily') expect([span.from % 86_400, span.to % 86_400]).toEqual([0, 0]);
        // Part-hours only: under an hour at each edge, under two hours when no whole hour fits at all.
        if (span.to > span.from && source === 'raw') expect(span.to - span.from).toBeLessThan(spans[1]![1].to > spans[1]![1].from ? 3600 : 7200);
        cursor = span.to;
      }
      expect(cursor).toBe(end);
    }
  });

  it('reads a :30 zone day from the hourly rollups except its two half-hours', () => {
    const period = resolveSummaryPeriod({ from: '2026-01-15', to: '2026-01-15', accountTimeZone: 'Asia/Kolkata' });
    const ranges = dailyReadRanges(localDaysOf(period));
    expect(ranges.map((r) => [r.source, r.to - r.from])).toEqual([
      ['raw', 1800],
      ['hourly', 23 * 3600],
      ['raw', 1800],
    ]);
    expect(planUsageRead(period.fromTimestamp, period.toTimestamp + 1).days).toEqual({
      from: period.toTimestamp + 1 - 1800,
      to: period.toTimestamp + 1 - 1800,
    });
  });
});
