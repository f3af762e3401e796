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

/** How the account's customers and resellers reach it (OCTO's supplier contact); every member optional. */
export interface AccountContact {
  email?: string | undefined;
  phone?: string | undefined;
  website?: string | undefined;
}

export async function createAccount(db: Db, input: { name: string; timeZone?: string; id?: string; contact?: AccountContact }): Promise<Account> {
  const { rows } = await db.query<AccountRow>(
    `INSERT INTO accounts (id, name, time_zone, email, phone, website) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, name, time_zone, created_at`,
    [input.id ?? randomUUID(), input.name, input.timeZone ?? 'UTC', input.contact?.email ?? null, input.contact?.phone ?? null, input.contact?.website ?? null],
  );
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
