// The admin CLI's console-user commands and the demo owner, against a real database: a created user can sign in
// with the printed password, a reset ends old sessions and old passwords, a disabled user cannot sign in; each change
// is in the audit log as the CLI's.
import { describe, expect, it } from 'vitest';
import { createAccount, findOperatorPerson, findOperatorUserByEmail, listAuditEntries } from '@backbone/db';
import { verifyPassword } from '@backbone/use-cases';
import { useTestDatabase } from '@backbone/testkit';
import { operatorCommands } from '../admin/operator.commands.js';
import { DEMO_OWNER_EMAIL, seedDemoOperator, seedDemoOwner } from '../admin/demo-seed.js';

const db = useTestDatabase();
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const run = async (command: string, options: Record<string, string | boolean>): Promise<any> =>
  JSON.parse(JSON.stringify(await operatorCommands[command]!.run(options, { pool: db.pool, redisUrl: 'redis://unused', queuePrefix: 'unused' })));

describe('admin CLI: console users', () => {
  it('creates a user with a one-time password, resets it and disables the user (PascalCase output)', async () => {
    const account = await createAccount(db.pool, { name: 'Cli Kayaks' });
    const created = await run('create-user', { account: account.id, email: 'Staff@Example.com', role: 'staff' });
    expect(created).toMatchObject({ AccountID: account.id, Email: 'staff@example.com', Role: 'staff', Disabled: false });
    expect(created.Password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const stored = (await findOperatorPerson(db.pool, 'staff@example.com'))!;
    expect(stored.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword(created.Password, stored.passwordHash)).toBe(true);

    const reset = await run('reset-password', { account: account.id, email: 'staff@example.com' });
    expect(reset.Password).not.toBe(created.Password);
    const after = (await findOperatorPerson(db.pool, 'staff@example.com'))!;
    expect(await verifyPassword(created.Password, after.passwordHash)).toBe(false);
    expect(await verifyPassword(reset.Password, after.passwordHash)).toBe(true);

    expect(await run('disable-user', { account: account.id, email: 'staff@example.com' })).toMatchObject({ Disabled: true });

    // Each change is in the account's audit log, by the CLI, without a password or its hash.
    const { entries } = await listAuditEntries(db.pool, account.id, { timeZone: 'UTC' }, { limit: 10, below: null });
    expect(entries.map((e) => [e.Action, e.Actor.Kind, e.Subject.Label])).toEqual([
      ['user.disabled', 'cli', 'staff@example.com'],
      ['password.changed', 'cli', 'staff@example.com'],
      ['user.created', 'cli', 'staff@example.com'],
    ]);
    const recorded = JSON.stringify(entries);
    for (const secret of [created.Password, reset.Password, 'scrypt$']) expect(recorded).not.toContain(secret);
  });

  it("refuses a taken e-mail, a bad role and another account's user", async () => {
    const account = await createAccount(db.pool, { name: 'A' });
    const other = await createAccount(db.pool, { name: 'B' });
    await run('create-user', { account: account.id, email: 'taken@example.com', role: 'owner' });
    await expect(run('create-user', { account: other.id, email: 'taken@example.com', role: 'owner' })).rejects.toThrow(/already used/);
    await expect(run('create-user', { account: account.id, email: 'x@example.com', role: 'root' })).rejects.toThrow(/--role/);
    await expect(run('disable-user', { account: other.id, email: 'taken@example.com' })).rejects.toThrow(/not found/);
  });

  it("refuses to disable the account's last active owner", async () => {
    const account = await createAccount(db.pool, { name: 'One owner' });
    await run('create-user', { account: account.id, email: 'only@example.com', role: 'owner' });
    await expect(run('disable-user', { account: account.id, email: 'only@example.com' })).rejects.toThrow(/last active owner/);
    expect((await findOperatorUserByEmail(db.pool, account.id, 'only@example.com'))!.disabled).toBe(false);
    await run('create-user', { account: account.id, email: 'next@example.com', role: 'owner' });
    expect(await run('disable-user', { account: account.id, email: 'only@example.com' })).toMatchObject({ Disabled: true });
    await expect(run('disable-user', { account: account.id, email: 'next@example.com' })).rejects.toThrow(/last active owner/);
  });

  it('seeds the demo owner once', async () => {
    await seedDemoOperator(db.pool);
    const first = await seedDemoOwner(db.pool);
    expect(first).toEqual({ Email: DEMO_OWNER_EMAIL, Password: expect.stringMatching(/^[A-Za-z0-9_-]{20}$/) });
    expect(await seedDemoOwner(db.pool)).toBeNull();
  });
});
