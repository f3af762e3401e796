// One person, several accounts (issue 39), over HTTP against PostgreSQL and Redis: a person (one e-mail, one password)
// joins a second account by invitation with the password they have (never replaced from a link); inviting their address
// answers exactly as inviting a new one; signing in with several accounts opens nothing until one is chosen; switching
// replaces the session, and every session id stays bound to the one account it was made for, by every route touched;
// a reset or a change of the password is the person's, in every account, and ends their sessions everywhere.
import { performance } from 'node:perf_hooks';
import { randomBytes, createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleLinkIn, deliverMailOnce, startSmtpCatcher, type SmtpCatcher } from '@backbone/test-apps/mail-worker';
import { request } from '@backbone/testkit';
import { createOperatorUser } from '@backbone/use-cases';
import { book, createOperator, createSlot, dayFromNow, PASSWORD, PROBLEM_BASE, SessionClient, signedIn, useOperatorApi, type Operator } from './support.js';

const MAX_FAILURES = 3;
const { db, server } = useOperatorApi({ signIn: { maxFailures: MAX_FAILURES } });

let a: Operator;
let b: Operator;
let stranger: Operator;
let catcher: SmtpCatcher;
/** The person: A's staff, who joins B as an owner. */
let person: string;
const bookings: Record<'a' | 'b', string> = { a: '', b: '' };

const NEW_PASSWORD = 'a brand new password of mine';

async function linksTo(to: string): Promise<Array<{ link: string; token: string; subject: string }>> {
  await deliverMailOnce(db.pool, catcher.url, `${server.url}/`);
  return catcher.messages
    .filter((m) => m.envelope.to.includes(to))
    .flatMap((m) => {
      const found = consoleLinkIn(m.decoded);
      return found ? [{ ...found, subject: m.headers.subject ?? '' }] : [];
    });
}

async function invite(owner: SessionClient, email: string, role: 'owner' | 'staff' = 'owner') {
  const started = performance.now();
  const answer = await owner.send('POST', '/api/v2/operator/invitations', { Email: email, Name: 'Rita Person', Role: role });
  return { answer, ms: performance.now() - started };
}

/** The same request with only a cookie: what an old session id opens, whatever the browser holds now. */
function withCookie(cookie: string, method: string, path: string, body?: unknown) {
  return request(server.url, method, path, { body, headers: { cookie, origin: server.url } });
}

const accountIdOf = async (client: SessionClient) => ((await client.send('GET', '/api/v2/operator/session')).body as { AccountID: string }).AccountID;

beforeAll(async () => {
  catcher = await startSmtpCatcher();
  a = await createOperator(db.pool);
  b = await createOperator(db.pool);
  stranger = await createOperator(db.pool);
  person = a.staff.email;
  const date = dayFromNow(3);
  await createSlot(db.pool, a, date, '09:00');
  await createSlot(db.pool, b, date, '09:00');
  bookings.a = (await book(db.pool, a, { date, time: '09:00' }, { lastName: 'OfAccountA' })).Reference;
  bookings.b = (await book(db.pool, b, { date, time: '09:00' }, { lastName: 'OfAccountB' })).Reference;
});
afterAll(() => catcher?.close());

describe('one person in two accounts', () => {
  it("answers an invitation of an address used elsewhere exactly as one of a new address, in the same time's order", async () => {
    const owner = await signedIn(server.url, b.owner.email);
    const fresh = `fresh-${b.account.id.slice(0, 8)}@example.com`;
    // Neither path hashes a password nor reads another account's users: the times differ by noise alone.
    const timings: Record<'used' | 'fresh', number[]> = { used: [], fresh: [] };
    const used = await invite(owner, person);
    const unused = await invite(owner, fresh);
    expect([used.answer.status, unused.answer.status]).toEqual([201, 201]);
    const shape = (body: Record<string, unknown>) => ({ ...body, InvitationID: '*', Email: '*', CreatedAt: '*', ExpiresAt: '*' });
    expect(shape(used.answer.body)).toEqual(shape(unused.answer.body));
    for (let i = 0; i < 5; i++) {
      // A user of A (a person elsewhere, seen from B), and an address that is nobody's, invited in turn.
      const elsewhere = `elsewhere-${i}-${a.account.id.slice(0, 8)}@example.com`;
      await createOperatorUser({ pool: db.pool }, { accountId: a.account.id, email: elsewhere, role: 'staff', password: PASSWORD, actor: { kind: 'system' } });
      timings.used.push((await invite(owner, elsewhere)).ms);
      timings.fresh.push((await invite(owner, `nobody-${i}-${b.account.id.slice(0, 8)}@example.com`)).ms);
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    expect(median(timings.used)).toBeLessThan(median(timings.fresh) * 5 + 50);

    // The invitation of A's user, its e-mail and its audit are those of any invitation.
    const [mail] = await linksTo(person);
    const [freshMail] = await linksTo(fresh);
    expect(mail!.subject).toBe(freshMail!.subject);
    const invitations = (await owner.send('GET', '/api/v2/operator/invitations')).body as Array<{ Email: string }>;
    expect(invitations.map((i) => i.Email)).toContain(person);
    // Re-inviting a user of this very account is still refused: that says nothing outside the account.
    const member = await owner.send('POST', '/api/v2/operator/invitations', { Email: b.staff.email, Name: 'Staff', Role: 'staff' });
    expect(member.status).toBe(422);
    expect(member.body.errors).toEqual([{ field: 'Email', message: 'is already a user of this account.' }]);
  });

  it('lets the person join with the password they have (checked and throttled like a sign-in), never replacing it', async () => {
    const [mail] = await linksTo(person);
    const invitee = new SessionClient(server.url);
    const opened = await invitee.send('POST', '/api/v2/operator/invitations/open', { Token: mail!.token });
    expect(opened.status).toBe(200);
    expect(opened.body).toEqual({ Email: person, Name: 'Rita Person', Role: 'owner', AccountName: b.account.name, HasPassword: true });
    expect(opened.headers.get('cache-control')).toBe('no-store');

    // A new password is not how a person with one joins: it is checked as their password, and refused.
    const wrong = await invitee.send('POST', '/api/v2/operator/invitations/accept', { Token: mail!.token, Password: NEW_PASSWORD });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([{ field: 'Password', message: 'is not the one you sign in to the console with.' }]);
    expect(invitee.cookie).toBeNull();
    expect((await new SessionClient(server.url).signIn(person, NEW_PASSWORD)).status).toBe(401);

    const joined = await invitee.send('POST', '/api/v2/operator/invitations/accept', { Token: mail!.token, Password: PASSWORD });
    expect(joined.status).toBe(204);
    const session = await invitee.send('GET', '/api/v2/operator/session');
    expect(session.body).toMatchObject({ AccountID: b.account.id, Email: person, Role: 'owner' });
    const names = [a.account, b.account].sort((x, y) => x.name.localeCompare(y.name) || x.id.localeCompare(y.id));
    expect(session.body.Accounts).toEqual(names.map((n) => ({ AccountID: n.id, AccountName: n.name })));
    // One person: one row of people, a user in each account, the password as it was.
    const { rows } = await db.pool.query<{ accounts: string[] }>(
      `SELECT array_agg(u.account_id ORDER BY u.account_id) AS accounts FROM operator_people p JOIN operator_users u ON u.person_id = p.id WHERE p.email = $1 GROUP BY p.id`,
      [person],
    );
    expect(rows).toEqual([{ accounts: [a.account.id, b.account.id].sort() }]);
    expect((await new SessionClient(server.url).signIn(person, PASSWORD)).status).toBe(204);

    // Wrong passwords through a link count as failed sign-ins of the e-mail at that address: past the budget it waits.
    const owner = await signedIn(server.url, stranger.owner.email);
    await invite(owner, person, 'staff');
    const [, link] = await linksTo(person);
    const guesser = new SessionClient(server.url);
    for (let i = 0; i < MAX_FAILURES; i++)
      expect((await guesser.send('POST', '/api/v2/operator/invitations/accept', { Token: link!.token, Password: `guess number ${i}!` })).status).toBe(422);
    const locked = await guesser.send('POST', '/api/v2/operator/invitations/accept', { Token: link!.token, Password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toMatch(/^\d+$/);
    const { rows: members } = await db.pool.query(`SELECT 1 FROM operator_users WHERE account_id = $1 AND email = $2`, [stranger.account.id, person]);
    expect(members).toEqual([]);
  });

  it('signs a person with two accounts in to none, opens nothing until one is chosen, and binds every session id to one account', async () => {
    const browser = new SessionClient(server.url);
    expect((await browser.signIn(person)).status).toBe(204);
    const unbound = browser.cookie!;
    for (const [method, path] of [
      ['GET', '/api/v2/operator/session'],
      ['GET', '/api/v2/operator/bookings'],
      ['GET', '/api/v2/operator/users'],
    ] as const) {
      const answer = await browser.send(method, path);
      expect(answer.status, path).toBe(403);
      expect(answer.body.type).toBe(`${PROBLEM_BASE}/account-choice-required`);
      expect((answer.body.Accounts as Array<{ AccountID: string }>).map((x) => x.AccountID).sort()).toEqual([a.account.id, b.account.id].sort());
    }

    // Not one of the person's accounts: 404, and the session is still there to choose with.
    const foreign = await browser.send('POST', '/api/v2/operator/session/account', { AccountID: stranger.account.id });
    expect(foreign.status).toBe(404);
    expect(browser.cookie).toBe(unbound);
    expect((await new SessionClient(server.url).send('POST', '/api/v2/operator/session/account', { AccountID: a.account.id })).status).toBe(401);
    const crossSite = await new SessionClient(server.url, 'https://evil.example').send('POST', '/api/v2/operator/session/account', {
      AccountID: a.account.id,
    });
    expect(crossSite.status).toBe(403);

    expect((await browser.send('POST', '/api/v2/operator/session/account', { AccountID: b.account.id })).status).toBe(204);
    const inB = browser.cookie!;
    expect(inB).not.toBe(unbound);
    expect(await accountIdOf(browser)).toBe(b.account.id);
    // The unbound id was replaced: it opens nothing, not even the choice.
    expect((await withCookie(unbound, 'GET', '/api/v2/operator/session')).status).toBe(401);
    expect((await withCookie(unbound, 'POST', '/api/v2/operator/session/account', { AccountID: a.account.id })).status).toBe(401);

    // Another browser of the same person, in A, all along.
    const desk = new SessionClient(server.url);
    await desk.signIn(person);
    await desk.send('POST', '/api/v2/operator/session/account', { AccountID: a.account.id });
    const inA = desk.cookie!;

    const seen: string[] = [];
    for (const target of [a, b, a, b]) {
      const before = browser.cookie!;
      expect((await browser.send('POST', '/api/v2/operator/session/account', { AccountID: target.account.id })).status).toBe(204);
      seen.push(before);
      const otherAccount = target === a ? b : a;
      const own = target === a ? bookings.a : bookings.b;
      const foreignBooking = target === a ? bookings.b : bookings.a;
      await expectWalledTo(browser, target, otherAccount, own, foreignBooking);
      // Every id this browser held before now opens nothing; the desk's stays in A.
      for (const old of seen) expect((await withCookie(old, 'GET', '/api/v2/operator/bookings')).status).toBe(401);
      expect(await accountIdOf(desk)).toBe(a.account.id);
      await expectWalledTo(desk, a, b, bookings.a, bookings.b);
    }
    expect(desk.cookie).toBe(inA);
    expect(seen).toContain(inB);

    // A page still showing A after this browser switched to B (another tab did it): refused, read or write.
    expect(await accountIdOf(browser)).toBe(b.account.id);
    const stale = { 'x-backbone-account': a.account.id };
    const read = await browser.send('GET', '/api/v2/operator/bookings', undefined, stale);
    expect(read.status).toBe(409);
    expect(read.body).toMatchObject({ type: `${PROBLEM_BASE}/account-switched`, AccountID: b.account.id });
    const write = await browser.send('POST', `/api/v2/operator/bookings/${bookings.b}/cancel`, { Reason: 'stale tab' }, stale);
    expect(write.status).toBe(409);
    expect((await browser.send('GET', `/api/v2/operator/bookings/${bookings.b}`)).body.Status).toBe('confirmed');
    expect((await browser.send('GET', '/api/v2/operator/bookings', undefined, { 'x-backbone-account': b.account.id })).status).toBe(200);

    // The database itself refuses a session whose account is not its user's.
    const { rows } = await db.pool.query<{ id: string; person_id: string }>(`SELECT id, person_id FROM operator_users WHERE account_id = $1 AND email = $2`, [
      a.account.id,
      person,
    ]);
    await expect(
      db.pool.query(`INSERT INTO operator_sessions (id_hash, person_id, user_id, account_id, expires_at) VALUES ($1, $2, $3, $4, now() + interval '1 hour')`, [
        createHash('sha256').update(randomBytes(32)).digest(),
        rows[0]!.person_id,
        rows[0]!.id,
        b.account.id,
      ]),
    ).rejects.toThrow(/operator_sessions_membership_fkey/);
  });

  it("ends only the disabled user's sessions: the person's other account goes on, and a sign-in goes straight to it", async () => {
    const browser = new SessionClient(server.url);
    await browser.signIn(person);
    await browser.send('POST', '/api/v2/operator/session/account', { AccountID: a.account.id });
    const inB = new SessionClient(server.url);
    await inB.signIn(person);
    await inB.send('POST', '/api/v2/operator/session/account', { AccountID: b.account.id });

    const ownerOfB = await signedIn(server.url, b.owner.email);
    const users = (await ownerOfB.send('GET', '/api/v2/operator/users')).body as Array<{ UserID: string; Email: string }>;
    const theirs = users.find((u) => u.Email === person)!;
    // A's owner cannot reach B's user of the same person (nor see it): a user id is of one account.
    const ownerOfA = await signedIn(server.url, a.owner.email);
    expect((await ownerOfA.send('POST', `/api/v2/operator/users/${theirs.UserID}/disable`)).status).toBe(404);
    expect((await ownerOfB.send('POST', `/api/v2/operator/users/${theirs.UserID}/disable`)).status).toBe(200);

    expect((await inB.send('GET', '/api/v2/operator/session')).status).toBe(401);
    expect(await accountIdOf(browser)).toBe(a.account.id);
    expect((await browser.send('GET', '/api/v2/operator/session')).body.Accounts).toEqual([{ AccountID: a.account.id, AccountName: a.account.name }]);
    expect((await browser.send('POST', '/api/v2/operator/session/account', { AccountID: b.account.id })).status).toBe(404);
    const again = new SessionClient(server.url);
    expect((await again.signIn(person)).status).toBe(204);
    expect(await accountIdOf(again)).toBe(a.account.id);

    // There is no "enable" yet: the row is restored for the tests that follow.
    await db.pool.query(`UPDATE operator_users SET disabled_at = NULL WHERE id = $1`, [theirs.UserID]);
  });

  it("resets the person's password in every account: every session of theirs ends, each account's audit log says so", async () => {
    const inA = new SessionClient(server.url);
    await inA.signIn(person);
    await inA.send('POST', '/api/v2/operator/session/account', { AccountID: a.account.id });
    const inB = new SessionClient(server.url);
    await inB.signIn(person);
    await inB.send('POST', '/api/v2/operator/session/account', { AccountID: b.account.id });

    const asker = new SessionClient(server.url);
    expect((await asker.send('POST', '/api/v2/operator/password-reset', { Email: person })).status).toBe(202);
    const resets = (await linksTo(person)).filter((m) => m.link.includes('/password-reset#'));
    expect(resets).toHaveLength(1);
    expect((await asker.send('POST', '/api/v2/operator/password-reset/complete', { Token: resets[0]!.token, NewPassword: NEW_PASSWORD })).status).toBe(204);
    // Signed in as a sign-in does: two accounts, so one is chosen first.
    expect((await asker.send('GET', '/api/v2/operator/session')).body.type).toBe(`${PROBLEM_BASE}/account-choice-required`);
    expect((await inA.send('GET', '/api/v2/operator/session')).status).toBe(401);
    expect((await inB.send('GET', '/api/v2/operator/session')).status).toBe(401);
    expect((await new SessionClient(server.url).signIn(person, PASSWORD)).status).toBe(401);
    for (const account of [a, b]) {
      const client = new SessionClient(server.url);
      expect((await client.signIn(person, NEW_PASSWORD)).status).toBe(204);
      expect((await client.send('POST', '/api/v2/operator/session/account', { AccountID: account.account.id })).status).toBe(204);
      expect(await accountIdOf(client)).toBe(account.account.id);
      const { rows } = await db.pool.query<{ action: string }>(
        `SELECT action FROM audit_entries WHERE account_id = $1 AND subject_label = $2 AND action = 'password.reset'`,
        [account.account.id, person],
      );
      expect(rows).toHaveLength(1);
    }
  });

  it("changes the person's password from either account, ending their sessions in the other", async () => {
    const inA = new SessionClient(server.url);
    await inA.signIn(person, NEW_PASSWORD);
    await inA.send('POST', '/api/v2/operator/session/account', { AccountID: a.account.id });
    const inB = new SessionClient(server.url);
    await inB.signIn(person, NEW_PASSWORD);
    await inB.send('POST', '/api/v2/operator/session/account', { AccountID: b.account.id });

    const changed = await inB.send('POST', '/api/v2/operator/session/password', { CurrentPassword: NEW_PASSWORD, NewPassword: PASSWORD });
    expect(changed.status).toBe(204);
    expect(await accountIdOf(inB)).toBe(b.account.id);
    expect((await inA.send('GET', '/api/v2/operator/session')).status).toBe(401);
    expect((await new SessionClient(server.url).signIn(person, NEW_PASSWORD)).status).toBe(401);
    expect((await new SessionClient(server.url).signIn(person, PASSWORD)).status).toBe(204);
    for (const account of [a, b]) {
      const { rows } = await db.pool.query(`SELECT 1 FROM audit_entries WHERE account_id = $1 AND subject_label = $2 AND action = 'password.changed'`, [
        account.account.id,
        person,
      ]);
      expect(rows).toHaveLength(1);
    }
  });
});

/**
 * What a session bound to `own` reaches: its account, its bookings and users; another account's booking, users and
 * invitations are not found, by reading or by changing them.
 */
async function expectWalledTo(client: SessionClient, own: Operator, other: Operator, ownBooking: string, otherBooking: string) {
  const session = await client.send('GET', '/api/v2/operator/session');
  expect(session.body.AccountID).toBe(own.account.id);
  const list = await client.send('GET', '/api/v2/operator/bookings?Limit=50');
  const references = list.body.Bookings as Array<{ Reference: string }>;
  expect(references.map((r) => r.Reference)).toContain(ownBooking);
  expect(references.map((r) => r.Reference)).not.toContain(otherBooking);
  expect((await client.send('GET', `/api/v2/operator/bookings/${otherBooking}`)).status).toBe(404);
  expect((await client.send('POST', `/api/v2/operator/bookings/${otherBooking}/cancel`, { Reason: 'walls' })).status).toBe(404);
  expect((await client.send('GET', `/api/v2/operator/bookings/${ownBooking}`)).status).toBe(200);
  const users = await client.send('GET', '/api/v2/operator/users');
  if (users.status === 200) {
    const emails = (users.body as Array<{ Email: string }>).map((u) => u.Email);
    expect(emails).toContain(own.owner.email);
    expect(emails).not.toContain(other.owner.email);
    const invitations = (await client.send('GET', '/api/v2/operator/invitations')).body as Array<{ InvitationID: string }>;
    const { rows } = await db.pool.query<{ id: string }>(`SELECT id FROM operator_invitations WHERE account_id = $1`, [own.account.id]);
    for (const i of invitations) expect(rows.map((r) => r.id)).toContain(i.InvitationID);
  } else {
    // Staff in this account: the users are the owners'.
    expect(users.status).toBe(403);
  }
}
