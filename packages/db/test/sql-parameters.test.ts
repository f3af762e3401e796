// sqlParameters: named values numbered in order, so statements assembled from shared fragments (the operator bookings
// list) send each value on the number its fragments name.
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '@backbone/testkit';
import { sqlParameters } from '../src/sql-parameters.js';

const db = useTestDatabase();

describe('sqlParameters', () => {
  it('numbers the names in order, and more names after them without renumbering the first', () => {
    const first = sqlParameters('account', 'from');
    const more = first.and('limit', 'below');
    expect(first.$).toEqual({ account: '$1', from: '$2' });
    expect(more.$).toEqual({ account: '$1', from: '$2', limit: '$3', below: '$4' });
    expect(more.values({ below: 'b', limit: 50, from: null, account: 'a' })).toEqual(['a', null, 50, 'b']);
  });

  it('refuses a name given twice', () => {
    expect(() => sqlParameters('account', 'from').and('account')).toThrow('a parameter is named twice: account, from, account');
  });

  it('sends each value where its name is written in the statement', async () => {
    const params = sqlParameters('word', 'count').and('suffix');
    const { $ } = params;
    const { rows } = await db.pool.query<{ said: string }>(
      `SELECT repeat(${$.word}::text, ${$.count}::int) || ${$.suffix}::text AS said`,
      params.values({ suffix: '!', count: 3, word: 'ab' }),
    );
    expect(rows[0]!.said).toBe('ababab!');
  });
});
