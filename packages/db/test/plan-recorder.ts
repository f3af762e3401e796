// The statements a repository function sends, recorded so a test can explain each (without running it again) and see
// which indexes PostgreSQL would read bookings through.
import type { Db } from '@backbone/db';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

export function recording(target: Db) {
  const statements: Array<{ text: string; values: unknown[] }> = [];
  const recorder = {
    query: (config: string | { text: string; values?: unknown[] }, ...rest: unknown[]) => {
      statements.push(
        typeof config === 'string' ? { text: config, values: (rest[0] as unknown[] | undefined) ?? [] } : { text: config.text, values: config.values ?? [] },
      );
      return (target.query as (...args: unknown[]) => unknown)(config, ...rest);
    },
  } as unknown as Db;
  /** Each scan of bookings in the plans of the recorded statements: its index, or its node type (Seq Scan). */
  const bookingIndexes = async (): Promise<string[]> => {
    const used: string[] = [];
    for (const { text, values } of statements) {
      const { rows } = await target.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (FORMAT JSON) ${text}`, values);
      const walk = (node: PlanNode) => {
        if (node['Relation Name'] === 'bookings' && node['Node Type'].endsWith('Scan')) used.push(node['Index Name'] ?? node['Node Type']);
        node.Plans?.forEach(walk);
      };
      walk(rows[0]!['QUERY PLAN'][0]!.Plan);
    }
    return used;
  };
  return { recorder, bookingIndexes };
}
