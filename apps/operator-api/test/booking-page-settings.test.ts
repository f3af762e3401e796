// The owner's booking page settings through HTTP: a slug another account has is a 409, a slug the page's own files
// use under /book/ is a 422, and neither changes anything.
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
