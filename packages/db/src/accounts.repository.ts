// Operator accounts: the tenant every other row belongs to.
import { randomUUID } from 'node:crypto';
import type { Db } from './pool.js';

export interface Account {
  id: string;
  name: string;
  timeZone: string;
  createdAt: string;
}

interface AccountRow {
  id: string;
  name: string;
  time_zone: string;
  created_at: Date;
}

function toAccount(row: AccountRow): Account {
  return { id: row.id, name: row.name, timeZone: row.time_zone, createdAt: row.created_at.toISOString() };
}

export async function createAccount(db: Db, input: { name: string; timeZone?: string; id?: string }): Promise<Account> {
  const { rows } = await db.query<AccountRow>(`INSERT INTO accounts (id, name, time_zone) VALUES ($1, $2, $3) RETURNING id, name, time_zone, created_at`, [
    input.id ?? randomUUID(),
    input.name,
    input.timeZone ?? 'UTC',
  ]);
  return toAccount(rows[0]!);
}

export async function findAccount(db: Db, accountId: string): Promise<Account | null> {
  const { rows } = await db.query<AccountRow>(`SELECT id, name, time_zone, created_at FROM accounts WHERE id = $1`, [accountId]);
  const row = rows[0];
  return row ? toAccount(row) : null;
}

/** Every account, oldest first. The one query across tenants: only the operator's admin CLI lists them. */
export async function listAccounts(db: Db): Promise<Account[]> {
  const { rows } = await db.query<AccountRow>(`SELECT id, name, time_zone, created_at FROM accounts ORDER BY created_at, id`);
  return rows.map(toAccount);
}
