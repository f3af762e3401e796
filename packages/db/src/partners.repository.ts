// Partners: the OTAs an account sells through. Each ota key belongs to one partner; bookings record the partner that
// made them, and a partner sees only its own.
import type { Db } from './pool.js';

export interface Partner {
  id: string;
  accountId: string;
  name: string;
  createdAt: string;
}

const UNIQUE_VIOLATION = '23505';

export class PartnerNameTakenError extends Error {
  override name = 'PartnerNameTakenError';
}

export async function createPartner(db: Db, accountId: string, name: string): Promise<Partner> {
  try {
    const { rows } = await db.query<{ id: string; created_at: Date }>(`INSERT INTO partners (account_id, name) VALUES ($1, $2) RETURNING id, created_at`, [
      accountId,
      name,
    ]);
    return { id: rows[0]!.id, accountId, name, createdAt: rows[0]!.created_at.toISOString() };
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new PartnerNameTakenError(`The account already has a partner named '${name}'.`);
    throw error;
  }
}

export async function listPartners(db: Db, accountId: string): Promise<Array<Partner & { keys: number }>> {
  const { rows } = await db.query<{ id: string; name: string; created_at: Date; keys: number }>(
    `SELECT p.id, p.name, p.created_at, count(k.id) FILTER (WHERE k.revoked_at IS NULL)::int AS keys
       FROM partners p LEFT JOIN api_keys k ON k.account_id = p.account_id AND k.partner_id = p.id
      WHERE p.account_id = $1 GROUP BY p.id ORDER BY lower(p.name), p.id`,
    [accountId],
  );
  return rows.map((r) => ({ id: r.id, accountId, name: r.name, createdAt: r.created_at.toISOString(), keys: r.keys }));
}

/** The account's partner with this id or (case-insensitive) name; null when there is none. */
export async function findPartner(db: Db, accountId: string, idOrName: string): Promise<Partner | null> {
  const { rows } = await db.query<{ id: string; name: string; created_at: Date }>(
    `SELECT id, name, created_at FROM partners
      WHERE account_id = $1 AND (id::text = lower($2) OR lower(name) = lower($2))
      ORDER BY (id::text = lower($2)) DESC LIMIT 1`,
    [accountId, idOrName],
  );
  const row = rows[0];
  return row ? { id: row.id, accountId, name: row.name, createdAt: row.created_at.toISOString() } : null;
}
