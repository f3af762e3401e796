// The owner's booking page settings through HTTP: a slug another account has is a 409, a slug the page's own files
// use under /book/ is a 422, and neither changes anything; each change is audited with the members that changed; the
// minutes a customer's places and a waitlist offer are held are the owner's to choose.
import { beforeAll, describe, expect, it } from 'vitest';
import { createOperator, PROBLEM_BASE, signedIn, useOperatorApi, type Operator, type SessionClient } from './support.js';

const { db, server } = useOperatorApi();

let operator: Operator;
let other: Operator;
let owner: SessionClient;
let otherOwner: SessionClient;

async function pageRow(accountId: string) {
  const { rows } = await db.pool.query(`SELECT enabled, slug, note FROM booking_pages WHERE account_id = $1`, [accountId]);
  return rows[0] ?? null;
}

beforeAll(async () => {
  operator = await createOperator(db.pool);
  other = await createOperator(db.pool);
  owner = await signedIn(server.url, operator.owner.email);
  otherOwner = await signedIn(server.url, other.owner.email);
  const first = await owner.send('PATCH', '/api/v2/operator/booking-page', { Enabled: true, Slug: 'harbour-tours', Note: 'Meet at the pier.' });
  expect(first.status).toBe(200);
});

describe('the slug', () => {
  it("one another account has is a 409 /slug-taken, and the other account's page stays as it was", async () => {
    const before = await pageRow(other.account.id);
    const taken = await otherOwner.send('PATCH', '/api/v2/operator/booking-page', { Enabled: true, Slug: 'harbour-tours', Note: 'Mine' });
    expect(taken.status).toBe(409);
    expect(taken.headers.get('content-type')).toContain('application/problem+json');
    expect(taken.body).toMatchObject({ type: `${PROBLEM_BASE}/slug-taken`, status: 409 });
    expect(taken.body.detail).toContain('harbour-tours');
    expect(await pageRow(other.account.id)).toEqual(before);
    expect(await pageRow(operator.account.id)).toEqual({ enabled: true, slug: 'harbour-tours', note: 'Meet at the pier.' });
  });

  it("one of the page's own paths under /book/ (assets) is a 422 naming Slug, and nothing changes", async () => {
    const before = await pageRow(operator.account.id);
    const reserved = await owner.send('PATCH', '/api/v2/operator/booking-page', { Slug: 'assets', Note: 'Changed' });
    expect(reserved.status).toBe(422);
    expect(reserved.body).toMatchObject({ type: `${PROBLEM_BASE}/validation`, status: 422 });
    expect(reserved.body.errors).toEqual([expect.objectContaining({ field: 'Slug' })]);
    expect(reserved.body.errors[0].message).toContain('assets');
    expect(await pageRow(operator.account.id)).toEqual(before);
    const read = await owner.send('GET', '/api/v2/operator/booking-page');
    expect(read.body).toMatchObject({ Slug: 'harbour-tours', Path: '/book/harbour-tours', Note: 'Meet at the pier.' });
  });
});

describe('the audit of the settings', () => {
  const auditOf = async (accountId: string) => {
    const { rows } = await db.pool.query(
      `SELECT actor_kind, actor_label, action, subject_type, subject_id, subject_label, changes FROM audit_entries
        WHERE account_id = $1 AND action = 'booking_page.updated' ORDER BY id`,
      [accountId],
    );
    return rows;
  };

  it('records each change with the owner and the members that changed; a refused or empty change records nothing', async () => {
    const before = (await auditOf(operator.account.id)).length;
    const changed = await owner.send('PATCH', '/api/v2/operator/booking-page', {
      Slug: 'harbour-kayaks',
      Terms: 'Pay at the pier.',
      Note: 'Meet at the pier.',
      EmbedOrigins: ['https://www.harbour.example'],
    });
    expect(changed.status).toBe(200);
    const entries = await auditOf(operator.account.id);
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)).toEqual({
      actor_kind: 'user',
      actor_label: operator.owner.email,
      action: 'booking_page.updated',
      subject_type: 'booking_page',
      subject_id: operator.account.id,
      subject_label: '/book/harbour-kayaks',
      // The note was sent unchanged: not a change.
      changes: {
        Slug: { From: 'harbour-tours', To: 'harbour-kayaks' },
        Terms: { From: '', To: 'Pay at the pier.' },
        EmbedOrigins: { From: [], To: ['https://www.harbour.example'] },
      },
    });

    // Through the API too, for the owner's audit page.
    const page = await owner.send('GET', '/api/v2/operator/audit?Action=booking_page.updated&Limit=1');
    expect(page.status).toBe(200);
    expect(page.body.Entries[0]).toMatchObject({
      Action: 'booking_page.updated',
      Subject: { Type: 'booking_page', ID: operator.account.id, Label: '/book/harbour-kayaks' },
      Changes: { Slug: { From: 'harbour-tours', To: 'harbour-kayaks' } },
    });

    expect((await owner.send('PATCH', '/api/v2/operator/booking-page', { Terms: 'Pay at the pier.' })).status).toBe(200);
    expect((await owner.send('PATCH', '/api/v2/operator/booking-page', { Slug: 'assets' })).status).toBe(422);
    expect((await otherOwner.send('PATCH', '/api/v2/operator/booking-page', { Slug: 'harbour-kayaks' })).status).toBe(409);
    expect(await auditOf(operator.account.id)).toHaveLength(before + 1);
    expect(await auditOf(other.account.id)).toHaveLength(0);
  });

  it('turning the page off is recorded', async () => {
    const off = await owner.send('PATCH', '/api/v2/operator/booking-page', { Enabled: false });
    expect(off.status).toBe(200);
    const last = (await auditOf(operator.account.id)).at(-1);
    expect(last.changes).toEqual({ Enabled: { From: true, To: false } });
  });
});

describe('the hold times', () => {
  it('default to 10 and 30 minutes, are saved within their bounds (nothing saved outside them) and audited', async () => {
    const current = await owner.send('GET', '/api/v2/operator/booking-page');
    expect(current.body).toMatchObject({ HoldMinutes: 10, WaitlistOfferMinutes: 30 });
    for (const body of [{ HoldMinutes: 4 }, { HoldMinutes: 61 }, { WaitlistOfferMinutes: 1441 }, { HoldMinutes: 12.5 }]) {
      const refused = await owner.send('PATCH', '/api/v2/operator/booking-page', body);
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([expect.objectContaining({ field: Object.keys(body)[0] })]);
    }
    const saved = await owner.send('PATCH', '/api/v2/operator/booking-page', { HoldMinutes: 15, WaitlistOfferMinutes: 90 });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ HoldMinutes: 15, WaitlistOfferMinutes: 90 });
    const { rows } = await db.pool.query(`SELECT hold_minutes, waitlist_offer_minutes FROM booking_pages WHERE account_id = $1`, [operator.account.id]);
    expect(rows[0]).toEqual({ hold_minutes: 15, waitlist_offer_minutes: 90 });
    expect((await otherOwner.send('GET', '/api/v2/operator/booking-page')).body).toMatchObject({ HoldMinutes: 10, WaitlistOfferMinutes: 30 });
    const audit = await db.pool.query(`SELECT changes FROM audit_entries WHERE account_id = $1 AND action = 'booking_page.updated' ORDER BY id DESC LIMIT 1`, [
      operator.account.id,
    ]);
    expect(audit.rows[0].changes).toEqual({ HoldMinutes: { From: 10, To: 15 }, WaitlistOfferMinutes: { From: 30, To: 90 } });
  });
});
