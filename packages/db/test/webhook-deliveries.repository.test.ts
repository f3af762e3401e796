import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createGroupCommit,
  createPartner,
  fanOutWebhookEvents,
  findWebhookDeliveryTargets,
  insertWebhookEndpointRow,
  recordWebhookAttempts,
  type WebhookAttemptToRecord,
} from '@backbone/db';
import { createTestAccount, useTestDatabase } from '@backbone/testkit';

const db = useTestDatabase();
const DAY_MS = 24 * 3600 * 1000;

async function partnerWithEndpoints(accountId: string, count: number): Promise<{ partnerId: string; endpointIds: string[] }> {
  const partnerId = (await createPartner(db.pool, accountId, `partner ${randomUUID()}`)).id;
  const endpointIds: string[] = [];
  for (let i = 0; i < count; i++) {
    endpointIds.push(
      await insertWebhookEndpointRow(db.pool, accountId, {
        partnerId,
        url: `https://hooks.example.com/${i}`,
        eventTypes: ['booking.confirmed'],
        secret: 'whsec_dGVzdA==',
      }),
    );
  }
  return { partnerId, endpointIds };
}

function event(accountId: string, partnerId: string, type = 'booking.confirmed') {
  return { accountId, partnerId, eventId: randomUUID(), type, payload: { type, data: { Reference: 'R' } } };
}

function attempt(accountId: string, deliveryId: string, endpointId: string, succeeded: boolean, nextAttemptAt: Date | null = null): WebhookAttemptToRecord {
  return {
    accountId,
    deliveryId,
    endpointId,
    durationMs: 5,
    statusCode: succeeded ? 200 : 500,
    error: succeeded ? null : 'answered 500',
    responseExcerpt: null,
    succeeded,
    nextAttemptAt,
    refusal: null,
    url: 'https://hooks.example.com/',
  };
}

describe('webhook deliveries in batches', () => {
  it("fans out several events in one statement, each to its own partner's endpoints, and again answers the pending ones", async () => {
    const { account } = await createTestAccount(db.pool);
    const a = await partnerWithEndpoints(account.id, 2);
    const b = await partnerWithEndpoints(account.id, 1);
    const events = [event(account.id, a.partnerId), event(account.id, b.partnerId), event(account.id, a.partnerId, 'booking.cancelled')];
    const pending = await fanOutWebhookEvents(db.pool, events);
    expect(pending.map((ids) => ids.length)).toEqual([2, 1, 0]);
    // A redelivered event inserts nothing new and answers the same pending deliveries.
    const again = await fanOutWebhookEvents(db.pool, [events[1]!, events[0]!]);
    expect(again.map((ids) => [...ids].sort())).toEqual([[...pending[1]!].sort(), [...pending[0]!].sort()]);

    const targets = await findWebhookDeliveryTargets(db.pool, [
      { accountId: account.id, deliveryId: pending[1]![0]!, runStartedAt: new Date(0) },
      { accountId: randomUUID(), deliveryId: pending[0]![0]!, runStartedAt: new Date(0) },
      { accountId: account.id, deliveryId: pending[0]![1]!, runStartedAt: new Date(0) },
    ]);
    expect(targets[0]).toMatchObject({ endpointId: b.endpointIds[0], eventId: events[1]!.eventId, status: 'pending', runAttempts: 0 });
    // Another account's id finds nothing.
    expect(targets[1]).toBeNull();
    expect(targets[2]).toMatchObject({ eventId: events[0]!.eventId, status: 'pending' });
  });

  it('records attempts to several deliveries at once: each delivery its state, each endpoint its health from its last attempt', async () => {
    const { account } = await createTestAccount(db.pool);
    const { partnerId, endpointIds } = await partnerWithEndpoints(account.id, 2);
    const [healthy, failing] = endpointIds as [string, string];
    const events = [event(account.id, partnerId), event(account.id, partnerId), event(account.id, partnerId)];
    const pending = await fanOutWebhookEvents(db.pool, events);
    const deliveryTo = async (endpointId: string, i: number) =>
      (
        await findWebhookDeliveryTargets(
          db.pool,
          pending[i]!.map((deliveryId) => ({ accountId: account.id, deliveryId, runStartedAt: new Date(0) })),
        )
      ).find((t) => t!.endpointId === endpointId)!.deliveryId;
    const later = new Date(Date.now() + 60_000);

    const outcomes = await recordWebhookAttempts(
      db.pool,
      [
        attempt(account.id, await deliveryTo(healthy, 0), healthy, false, later),
        attempt(account.id, await deliveryTo(healthy, 1), healthy, true),
        attempt(account.id, await deliveryTo(failing, 0), failing, false, later),
        attempt(account.id, await deliveryTo(failing, 1), failing, false, null),
        // Deleted with its endpoint meanwhile, or never there: null, and the others are recorded all the same.
        attempt(account.id, randomUUID(), failing, true),
      ],
      5 * DAY_MS,
    );
    expect(outcomes).toEqual([
      { status: 'pending', endpointDisabled: false },
      { status: 'delivered', endpointDisabled: false },
      { status: 'pending', endpointDisabled: false },
      { status: 'failed', endpointDisabled: false },
      null,
    ]);
    const { rows: endpoints } = await db.pool.query<{ id: string; failing: boolean }>(
      'SELECT id, failing_since IS NOT NULL AS failing FROM webhook_endpoints WHERE account_id = $1',
      [account.id],
    );
    expect(Object.fromEntries(endpoints.map((e) => [e.id, e.failing]))).toEqual({ [healthy]: false, [failing]: true });
    const { rows: attempts } = await db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.account_id = $1',
      [account.id],
    );
    expect(attempts[0]!.n).toBe(4);

    // A failing endpoint whose run of failures is older than the limit is disabled by a batch of failures only.
    await db.pool.query(`UPDATE webhook_endpoints SET failing_since = now() - interval '6 days' WHERE id = $1`, [failing]);
    const [disabled] = await recordWebhookAttempts(db.pool, [attempt(account.id, await deliveryTo(failing, 2), failing, false, later)], 5 * DAY_MS);
    expect(disabled).toEqual({ status: 'failed', endpointDisabled: true });
  });

  it('disables an endpoint at its first refused attempt, with the refusal as the reason, unless its URL changed meanwhile', async () => {
    const { account } = await createTestAccount(db.pool);
    const { partnerId, endpointIds } = await partnerWithEndpoints(account.id, 2);
    const [refused, moved] = endpointIds as [string, string];
    const pending = await fanOutWebhookEvents(db.pool, [event(account.id, partnerId)]);
    const targets = await findWebhookDeliveryTargets(
      db.pool,
      pending[0]!.map((deliveryId) => ({ accountId: account.id, deliveryId, runStartedAt: new Date(0) })),
    );
    const to = (endpointId: string) => targets.find((t) => t!.endpointId === endpointId)!;
    const later = new Date(Date.now() + 60_000);
    const refusedAttempt = (endpointId: string, url: string) => ({
      ...attempt(account.id, to(endpointId).deliveryId, endpointId, false, later),
      statusCode: null,
      error: 'webhook destination refused: hooks.example.com resolves to 10.0.0.1, a private address',
      refusal: 'hooks.example.com resolves to 10.0.0.1, a private address',
      url,
    });
    // The partner changed the second endpoint's URL while the attempt to the old one was refused.
    await db.pool.query(`UPDATE webhook_endpoints SET url = 'https://elsewhere.example.com/' WHERE id = $1`, [moved]);
    const outcomes = await recordWebhookAttempts(db.pool, [refusedAttempt(refused, to(refused).url), refusedAttempt(moved, to(moved).url)], 5 * DAY_MS);
    expect(outcomes).toEqual([
      { status: 'failed', endpointDisabled: true },
      { status: 'pending', endpointDisabled: false },
    ]);
    const { rows } = await db.pool.query<{ id: string; disabled: boolean; disabled_reason: string | null }>(
      'SELECT id, disabled_at IS NOT NULL AS disabled, disabled_reason FROM webhook_endpoints WHERE account_id = $1',
      [account.id],
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, [r.disabled, r.disabled_reason]]))).toEqual({
      [refused]: [
        true,
        'The destination was refused: hooks.example.com resolves to 10.0.0.1, a private address. Nothing more is sent until the endpoint is updated (PATCH /api/v2/ota/partner/webhooks/{ID}).',
      ],
      [moved]: [false, null],
    });
  });
});

describe('createGroupCommit', () => {
  it('writes the items waiting together in one batch; a batch that fails is retried item by item, so only the bad item fails', async () => {
    const batches: string[][] = [];
    const group = createGroupCommit(
      async (items: readonly string[]) => {
        batches.push([...items]);
        const { rows } = await db.pool.query<{ n: number }>('SELECT x::int AS n FROM unnest($1::text[]) WITH ORDINALITY AS t(x, i) ORDER BY i', [items]);
        return rows.map((row) => row.n);
      },
      { maxConcurrentBatches: 1, retryFailedBatchItemByItem: true },
    );
    const answers = await Promise.allSettled(['1', '2', 'three', '4'].map((item) => group.submit(item)));
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []))).toEqual([1, 2, 4]);
    // The first alone (nothing else was waiting), the three that waited for it together, then those three one by one.
    expect(batches).toEqual([['1'], ['2', 'three', '4'], ['2'], ['three'], ['4']]);
  });
});
