// The migration that made the console's people (one e-mail, one password, a user in each account) keeps every user, its
// password, its one-time-password mark and its live sessions; its Down folds people back into users while each person
// is a user of one account, and refuses (changing nothing) once one is a user of several.
import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useMigrationSchema } from './migration-schema.js';

const { pool, migrateUntil, undoLast } = useMigrationSchema();

const PEOPLE = 1763872200000;

describe('1763872200000_operator-people', () => {
  it('makes each user a person with the same id, e-mail and password, and folds them back while nobody has two accounts', async () => {
    await migrateUntil(PEOPLE - 1);
    const [first, second] = [randomUUID(), randomUUID()];
    await pool.query(`INSERT INTO accounts (id, name) VALUES ($1, 'First'), ($2, 'Second')`, [first, second]);
    const users = [
      { id: randomUUID(), account: first, email: 'ana@example.com', hash: 'scrypt$32768$8$1$c2FsdA$aGFzaA', mustChange: false },
      { id: randomUUID(), account: second, email: 'rui@example.com', hash: 'scrypt$32768$8$1$c2FsdB$aGFzaB', mustChange: true },
    ];
    for (const u of users)
      await pool.query(`INSERT INTO operator_users (id, account_id, email, password_hash, role, password_must_change) VALUES ($1, $2, $3, $4, 'owner', $5)`, [
        u.id,
        u.account,
        u.email,
        u.hash,
        u.mustChange,
      ]);
    const session = createHash('sha256').update('a session').digest();
    await pool.query(`INSERT INTO operator_sessions (id_hash, user_id, account_id, expires_at) VALUES ($1, $2, $3, now() + interval '1 hour')`, [
      session,
      users[0]!.id,
      first,
    ]);

    await migrateUntil(PEOPLE);
    const people = await pool.query(`SELECT id, email, password_hash, password_must_change FROM operator_people ORDER BY email`);
    expect(people.rows).toEqual(users.map((u) => ({ id: u.id, email: u.email, password_hash: u.hash, password_must_change: u.mustChange })));
    const members = await pool.query(`SELECT id, person_id, account_id, email FROM operator_users ORDER BY email`);
    expect(members.rows).toEqual(users.map((u) => ({ id: u.id, person_id: u.id, account_id: u.account, email: u.email })));
    const sessions = await pool.query(`SELECT person_id, user_id, account_id FROM operator_sessions`);
    expect(sessions.rows).toEqual([{ person_id: users[0]!.id, user_id: users[0]!.id, account_id: first }]);

    await undoLast();
    const folded = await pool.query(`SELECT id, account_id, email, password_hash, password_must_change FROM operator_users ORDER BY email`);
    expect(folded.rows).toEqual(
      users.map((u) => ({ id: u.id, account_id: u.account, email: u.email, password_hash: u.hash, password_must_change: u.mustChange })),
    );
    expect((await pool.query(`SELECT to_regclass('operator_people') AS t`)).rows[0].t).toBeNull();
    expect((await pool.query(`SELECT count(*)::int AS n FROM operator_sessions`)).rows[0].n).toBe(1);

    // Up again, and Ana joins the second account: the Down can no longer give her one user, and refuses.
    await migrateUntil(PEOPLE);
    await pool.query(`INSERT INTO operator_users (id, account_id, person_id, email, role) VALUES ($1, $2, $3, 'ana@example.com', 'staff')`, [
      randomUUID(),
      second,
      users[0]!.id,
    ]);
    await expect(undoLast()).rejects.toThrow(/several accounts/);
    expect((await pool.query(`SELECT count(*)::int AS n FROM operator_users WHERE person_id = $1`, [users[0]!.id])).rows[0].n).toBe(2);
  });
});
