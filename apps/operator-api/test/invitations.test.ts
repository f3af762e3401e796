// Invitations and password resets by e-mail, end to end over HTTP: the owner invites, the mail worker's delivery sends
// the e-mail to a real SMTP server (the local catcher), the link is read from the message received and accepted, and
// the invitee is signed in; expired, used, revoked and replaced links are refused with a clear problem and change
// nothing; the database keeps only the tokens' hashes. "Forgot your password?" answers the same for any address, sends
// a link that works once, ends the user's other sessions, and is throttled per e-mail and per address.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleLinkIn, deliverMailOnce, startSmtpCatcher, type SmtpCatcher } from '@backbone/test-apps/mail-worker';
import { createOperator, PROBLEM_BASE, SessionClient, signedIn, useOperatorApi, type Operator } from './support.js';

const { db, server } = useOperatorApi();

let operator: Operator;
let other: Operator;
let catcher: SmtpCatcher;

beforeAll(async () => {
  catcher = await startSmtpCatcher();
  operator = await createOperator(db.pool);
  other = await createOperator(db.pool);
});
afterAll(() => catcher?.close());

/** Sends the due e-mails and answers the console links received by `to` so far, oldest first. */
async function linksTo(to: string): Promise<Array<{ link: string; token: string; subject: string }>> {
  await deliverMailOnce(db.pool, catcher.url, `${server.url}/`);
  return catcher.messages
    .filter((m) => m.envelope.to.includes(to))
    .flatMap((m) => {
      const found = consoleLinkIn(m.decoded);
      return found ? [{ ...found, subject: m.headers.subject ?? '' }] : [];
    });
}

const NEW_PASSWORD = 'a long password of mine';

async function auditActions(accountId: string, label: string): Promise<string[]> {
  const { rows } = await db.pool.query<{ action: string }>(`SELECT action FROM audit_entries WHERE account_id = $1 AND subject_label = $2 ORDER BY id`, [
    accountId,
    label,
  ]);
  return rows.map((r) => r.action);
}

describe('invitations', () => {
  it('sends a link that signs the invitee in once, with the name and role given; only hashes are stored, nothing is metered', async () => {
    const owner = await signedIn(server.url, operator.owner.email);
    const email = `maria-${operator.account.id.slice(0, 8)}@example.com`;
    const invited = await owner.send('POST', '/api/v2/operator/invitations', { Email: email.toUpperCase(), Name: '  Maria  da Graça ', Role: 'staff' });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({
      Email: email,
      Name: 'Maria da Graça',
      Role: 'staff',
      InvitedBy: operator.owner.email,
      Expired: false,
      MailStatus: 'queued',
    });
    expect(Date.parse(invited.body.ExpiresAt) - Date.now()).toBeGreaterThan(47.9 * 3_600_000);
    expect((await owner.send('GET', '/api/v2/operator/invitations')).body).toEqual([invited.body]);

    const [mail] = await linksTo(email);
    expect(mail!.subject).toBe(`You are invited to the console of ${operator.account.name}`);
    expect(mail!.link).toBe(`${server.url}/console/invitation#${mail!.token}`);
    const stored = await db.pool.query<{ text_body: string; event_published_at: Date | null; status: string }>(
      `SELECT text_body, event_published_at, status FROM mail_messages WHERE account_id = $1 AND kind = 'invitation'`,
      [operator.account.id],
    );
    expect(stored.rows[0]!.status).toBe('sent');
    expect(stored.rows[0]!.text_body).toContain('/console/invitation#{link-token}');
    expect(stored.rows[0]!.text_body).not.toContain(mail!.token);
    // Not one of the account's workflow e-mails: nothing to publish, so nothing meters it.
    expect(stored.rows[0]!.event_published_at).not.toBeNull();
    const hashes = await db.pool.query<{ token_hash: Buffer }>(`SELECT token_hash FROM operator_link_tokens`);
    expect(hashes.rows.map((r) => r.token_hash.toString('hex'))).toContain(createHash('sha256').update(mail!.token).digest('hex'));

    const short = await new SessionClient(server.url).send('POST', '/api/v2/operator/invitations/accept', { Token: mail!.token, Password: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.errors).toEqual([{ field: 'Password', message: 'must be at least 12 characters long.' }]);

    const invitee = new SessionClient(server.url);
    expect((await invitee.send('POST', '/api/v2/operator/invitations/accept', { Token: mail!.token, Password: NEW_PASSWORD })).status).toBe(204);
    expect((await invitee.send('GET', '/api/v2/operator/session')).body).toMatchObject({ Email: email, Role: 'staff' });
    expect((await new SessionClient(server.url).signIn(email, NEW_PASSWORD)).status).toBe(204);
    const users = (await owner.send('GET', '/api/v2/operator/users')).body as Array<{ Email: string; Name: string | null }>;
    expect(users.find((u) => u.Email === email)).toMatchObject({ Name: 'Maria da Graça', Role: 'staff', Disabled: false });
    expect((await owner.send('GET', '/api/v2/operator/invitations')).body).toEqual([]);

    const again = await new SessionClient(server.url).send('POST', '/api/v2/operator/invitations/accept', {
      Token: mail!.token,
      Password: 'another long password',
    });
    expect(again.status).toBe(410);
    expect(again.body).toMatchObject({
      type: `${PROBLEM_BASE}/link-not-valid`,
      Reason: 'used',
      detail: 'This link was used already. Sign in, or ask for a new one.',
    });
    expect((await new SessionClient(server.url).signIn(email, 'another long password')).status).toBe(401);
    expect(await auditActions(operator.account.id, email)).toEqual(['invitation.created', 'invitation.accepted', 'user.created']);
  });

  it('resend sends a new link and the old one stops working; revoke withdraws them; an expired one is refused', async () => {
    const owner = await signedIn(server.url, operator.owner.email);
    const email = `joao-${operator.account.id.slice(0, 8)}@example.com`;
    const invited = await owner.send('POST', '/api/v2/operator/invitations', { Email: email, Name: 'João', Role: 'owner' });
    const [first] = await linksTo(email);
    const twice = await owner.send('POST', '/api/v2/operator/invitations', { Email: email, Name: 'João', Role: 'owner' });
    expect(twice.status).toBe(422);
    expect(twice.body.errors).toEqual([{ field: 'Email', message: 'has a pending invitation already; resend it instead.' }]);

    const resent = await owner.send('POST', `/api/v2/operator/invitations/${invited.body.InvitationID}/resend`);
    expect(resent.status).toBe(200);
    const [, second] = await linksTo(email);
    expect(second!.token).not.toBe(first!.token);
    const old = await new SessionClient(server.url).send('POST', '/api/v2/operator/invitations/accept', { Token: first!.token, Password: NEW_PASSWORD });
    expect(old.status).toBe(410);
    expect(old.body.Reason).toBe('replaced');

    // Past its 48 hours (the database's clock decides).
    await db.pool.query(`UPDATE operator_invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [invited.body.InvitationID]);
    const expired = await new SessionClient(server.url).send('POST', '/api/v2/operator/invitations/accept', { Token: second!.token, Password: NEW_PASSWORD });
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ Reason: 'expired', detail: 'This link has expired. Ask for a new one.' });
    expect((await owner.send('GET', '/api/v2/operator/invitations')).body[0]).toMatchObject({ Email: email, Expired: true });

    await owner.send('POST', `/api/v2/operator/invitations/${invited.body.InvitationID}/resend`);
    const [, , third] = await linksTo(email);
    expect((await owner.send('DELETE', `/api/v2/operator/invitations/${invited.body.InvitationID}`)).status).toBe(204);
    const revoked = await new SessionClient(server.url).send('POST', '/api/v2/operator/invitations/accept', { Token: third!.token, Password: NEW_PASSWORD });
    expect(revoked.status).toBe(410);
    expect(revoked.body).toMatchObject({ Reason: 'revoked', detail: 'This invitation was withdrawn.' });
    const { rows } = await db.pool.query(`SELECT 1 FROM operator_users WHERE email = $1`, [email]);
    expect(rows).toEqual([]);
    expect((await owner.send('DELETE', `/api/v2/operator/invitations/${invited.body.InvitationID}`)).status).toBe(404);
    expect(await auditActions(operator.account.id, email)).toEqual(['invitation.created', 'invitation.resent', 'invitation.resent', 'invitation.revoked']);
  });

  it('keeps to its account: another account cannot see, resend or revoke an invitation; a queued e-mail of a revoked one never leaves', async () => {
    const owner = await signedIn(server.url, operator.owner.email);
    const stranger = await signedIn(server.url, other.owner.email);
    const email = `quiet-${operator.account.id.slice(0, 8)}@example.com`;
    const invited = await owner.send('POST', '/api/v2/operator/invitations', { Email: email, Name: 'Quiet', Role: 'staff' });
    expect((await stranger.send('GET', '/api/v2/operator/invitations')).body).toEqual([]);
    expect((await stranger.send('POST', `/api/v2/operator/invitations/${invited.body.InvitationID}/resend`)).status).toBe(404);
    expect((await stranger.send('DELETE', `/api/v2/operator/invitations/${invited.body.InvitationID}`)).status).toBe(404);
    expect((await owner.send('DELETE', `/api/v2/operator/invitations/${invited.body.InvitationID}`)).status).toBe(204);
    expect(await linksTo(email)).toEqual([]);
    const staff = await signedIn(server.url, operator.staff.email);
    expect((await staff.send('POST', '/api/v2/operator/invitations', { Email: 'x@example.com', Name: 'X', Role: 'owner' })).status).toBe(403);
    const member = await owner.send('POST', '/api/v2/operator/invitations', { Email: operator.staff.email, Name: 'Staff', Role: 'staff' });
    expect(member.status).toBe(422);
    expect(member.body.errors).toEqual([{ field: 'Email', message: 'is already a user of this account.' }]);
    const bad = await new SessionClient(server.url).send('POST', '/api/v2/operator/invitations/accept', { Token: 'x'.repeat(43), Password: NEW_PASSWORD });
    expect(bad.status).toBe(410);
    expect(bad.body.Reason).toBe('unknown');
    const foreign = await new SessionClient(server.url, 'https://evil.example').send('POST', '/api/v2/operator/invitations/accept', {
      Token: 'x'.repeat(43),
      Password: NEW_PASSWORD,
    });
    expect(foreign.status).toBe(403);
  });
});

describe('password reset by e-mail', () => {
  it('answers the same for any address, sends a link that works once and ends the other sessions', async () => {
    const email = operator.staff.email;
    const elsewhere = await signedIn(server.url, email);
    const asker = new SessionClient(server.url);
    const known = await asker.send('POST', '/api/v2/operator/password-reset', { Email: email.toUpperCase() });
    const unknown = await asker.send('POST', '/api/v2/operator/password-reset', { Email: 'nobody-at-all@example.com' });
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(known.text).toBe(unknown.text);
    const [mail] = await linksTo(email);
    expect(mail!.link).toBe(`${server.url}/console/password-reset#${mail!.token}`);
    expect(mail!.subject).toBe(`Reset your password for ${operator.account.name}`);
    expect(await linksTo('nobody-at-all@example.com')).toEqual([]);

    const short = await asker.send('POST', '/api/v2/operator/password-reset/complete', { Token: mail!.token, NewPassword: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.errors).toEqual([{ field: 'NewPassword', message: 'must be at least 12 characters long.' }]);
    expect((await asker.send('POST', '/api/v2/operator/password-reset/complete', { Token: mail!.token, NewPassword: NEW_PASSWORD })).status).toBe(204);
    expect((await asker.send('GET', '/api/v2/operator/session')).body).toMatchObject({ Email: email });
    expect((await elsewhere.send('GET', '/api/v2/operator/session')).status).toBe(401);
    expect((await new SessionClient(server.url).signIn(email, NEW_PASSWORD)).status).toBe(204);
    const used = await new SessionClient(server.url).send('POST', '/api/v2/operator/password-reset/complete', {
      Token: mail!.token,
      NewPassword: 'yet another password',
    });
    expect(used.status).toBe(410);
    expect(used.body.Reason).toBe('used');
    expect(await auditActions(operator.account.id, email)).toContain('password.reset');

    // A newer request ends the older link; an expired link is refused and changes nothing.
    await asker.send('POST', '/api/v2/operator/password-reset', { Email: email });
    const [, older] = await linksTo(email);
    await asker.send('POST', '/api/v2/operator/password-reset', { Email: email });
    const [, , newer] = await linksTo(email);
    expect(
      (await asker.send('POST', '/api/v2/operator/password-reset/complete', { Token: older!.token, NewPassword: 'yet another password' })).body.Reason,
    ).toBe('used');
    await db.pool.query(`UPDATE operator_password_resets SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`);
    const expired = await asker.send('POST', '/api/v2/operator/password-reset/complete', { Token: newer!.token, NewPassword: 'yet another password' });
    expect(expired.status).toBe(410);
    expect(expired.body.Reason).toBe('expired');
    expect((await new SessionClient(server.url).signIn(email, NEW_PASSWORD)).status).toBe(204);
  });

  it('sends at most three e-mails to an address an hour, and refuses an address that asks too often', async () => {
    const email = other.staff.email;
    const asker = new SessionClient(server.url);
    for (let i = 0; i < 5; i++) expect((await asker.send('POST', '/api/v2/operator/password-reset', { Email: email })).status).toBe(202);
    const { rows } = await db.pool.query(`SELECT 1 FROM mail_messages WHERE kind = 'password-reset' AND to_address = $1`, [email]);
    expect(rows).toHaveLength(3);
    // Only the newest link of a user works, so the two older e-mails, not sent yet, are withdrawn rather than sent.
    expect(await linksTo(email)).toHaveLength(1);
    const sprayer = new SessionClient(server.url);
    const answers: number[] = [];
    for (let i = 0; i < 21; i++) answers.push((await sprayer.send('POST', '/api/v2/operator/password-reset', { Email: `spray-${i}@example.com` })).status);
    expect(answers.slice(0, 20).every((s) => s === 202)).toBe(true);
    expect(answers[20]).toBe(429);
  });
});
