// GET questions on the partner and the core path: the same array in display order, no 422 on the partner path.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestActivity, createTestQuestion, request } from '@backbone/testkit';
import type { Activity } from '@backbone/domain';
import { createOperator, PROBLEM_BASE, usePartnerApi, type Operator } from './support.js';

const { db, server } = usePartnerApi();
const PATHS = ['/api/v2/ota/partner/questions', '/api/v2/ota/core/questions'] as const;

let op: Operator;
let other: Operator;
let bare: Activity;
let retired: Activity;
let ids: number[];

beforeAll(async () => {
  op = await createOperator(db.pool);
  other = await createOperator(db.pool);
  ids = [
    (await createTestQuestion(db.pool, op.activity, { question: 'Upload your signed waiver', type: 'file', required: true })).id,
    (
      await createTestQuestion(db.pool, op.activity, {
        question: 'Swimming level',
        type: 'select',
        required: true,
        options: ['None', 'Good'],
        perParticipant: true,
      })
    ).id,
    (await createTestQuestion(db.pool, op.activity, { question: 'Anything else?', type: 'textarea' })).id,
  ];
  await createTestQuestion(db.pool, other.activity, { question: 'Not yours' });
  bare = await createTestActivity(db.pool, op.account.id);
  retired = await createTestActivity(db.pool, op.account.id, { active: false });
  await createTestQuestion(db.pool, retired, { question: 'Retired question' });
});

describe.each(PATHS)('GET %s/:ActivityID', (base) => {
  it('returns the questions in display order with their full shape', async () => {
    const res = await request(server.url, 'GET', `${base}/${op.activity.activityId}`, { key: op.ota });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual([
      { ID: ids[0], Question: 'Upload your signed waiver', Type: 'file', Required: true, Options: [], PerParticipant: false },
      { ID: ids[1], Question: 'Swimming level', Type: 'select', Required: true, Options: ['None', 'Good'], PerParticipant: true },
      { ID: ids[2], Question: 'Anything else?', Type: 'textarea', Required: false, Options: [], PerParticipant: false },
    ]);
  });

  it('follows the position, not the creation order', async () => {
    await db.pool.query('UPDATE waiver_questions SET position = 0 WHERE id = $1', [ids[2]]);
    try {
      const res = await request(server.url, 'GET', `${base}/${op.activity.activityId}`, { key: op.ota });
      expect(res.body.map((q: { ID: number }) => q.ID)).toEqual([ids[2], ids[0], ids[1]]);
    } finally {
      await db.pool.query('UPDATE waiver_questions SET position = 3 WHERE id = $1', [ids[2]]);
    }
  });

  it('returns an empty array for an activity without questions', async () => {
    const res = await request(server.url, 'GET', `${base}/${bare.activityId}`, { key: op.ota });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('takes no Date parameter and never answers 422 for it', async () => {
    for (const query of ['', '?Date=', '?Date=2026-02-30', '?Date=not-a-date']) {
      const res = await request(server.url, 'GET', `${base}/${op.activity.activityId}${query}`, { key: op.ota });
      expect(res.status, query).toBe(200);
      expect(res.body).toHaveLength(3);
    }
  });

  it.each(['abc', '00000000000000000000000000000000', `${randomUUID()}0`, "1' OR '1'='1"])('answers 400 for the ActivityID %j', async (id) => {
    const res = await request(server.url, 'GET', `${base}/${encodeURIComponent(id)}`, { key: op.ota });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/invalid-request`, status: 400 });
  });

  it.each([
    ['unknown', () => randomUUID()],
    ['of another account', () => other.activity.activityId],
    ['inactive', () => retired.activityId],
  ])('answers 404 for an activity that is %s', async (_label, activityId) => {
    const id = activityId();
    const res = await request(server.url, 'GET', `${base}/${id}`, { key: op.ota });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/not-found`, status: 404, instance: `${base}/${id}` });
  });
});

it('answers the partner and the core path with the same bytes', async () => {
  const [partner, core] = await Promise.all(PATHS.map((base) => request(server.url, 'GET', `${base}/${op.activity.activityId}`, { key: op.ota })));
  expect(partner!.text).toBe(core!.text);
});
