// The partner app as a service: the OpenAPI document of every operation behind the one base URL, the docs page,
// and the health probes.
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ALL_OPERATIONS } from '@backbone/contracts';
import { createHttpServer } from '@backbone/http';
import { request } from '@backbone/testkit';
import { createOperator, createTestPartnerApp, usePartnerApi } from './support.js';

const { db, server } = usePartnerApi();

describe('partner API service', () => {
  it('serves an OpenAPI 3.1 document with every operation of the base URL', async () => {
    const res = await request(server.url, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const operationIds = Object.values(res.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap((methods) =>
      Object.values(methods).map((op) => op.operationId),
    );
    for (const op of ALL_OPERATIONS) expect(operationIds).toContain(op.operationId);
    expect(res.body.paths['/api/v2/ota/partner/availability/{ActivityID}/timeslots'].get).toMatchObject({
      operationId: 'listAvailableTimeslots',
      security: [{ bearerAuth: ['ota'] }],
      parameters: expect.arrayContaining([
        expect.objectContaining({ name: 'ActivityID', in: 'path', required: true }),
        expect.objectContaining({ name: 'Date', in: 'query', required: true }),
      ]),
    });
    const booking = res.body.paths['/api/v2/ota/partner/booking'].post;
    // Customer is required unless the request is a hold (which may send it with its confirm).
    const bookingBody = booking.requestBody.content['application/json'].schema;
    expect(bookingBody.required).toEqual(['ActivityID', 'Date', 'Time', 'Participants']);
    expect(bookingBody.then.required).toEqual(['Customer']);
    expect(booking.parameters).toEqual([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]);
    expect(Object.keys(booking.responses)).toEqual(expect.arrayContaining(['201', '401', '403', '409', '422']));
    expect(res.body.paths['/api/v2/ota/partner/webhooks/{ID}/deliveries/{DeliveryID}/replay'].post).toMatchObject({
      operationId: 'replayWebhookDelivery',
      security: [{ bearerAuth: ['ota'] }],
      parameters: [
        expect.objectContaining({ name: 'ID', in: 'path', required: true }),
        expect.objectContaining({ name: 'DeliveryID', in: 'path', required: true }),
      ],
    });
  });

  it('serves human-readable docs without a CDN', async () => {
    const res = await request(server.url, 'GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).not.toMatch(/https?:\/\//);
    expect((await request(server.url, 'GET', '/docs/assets/swagger-ui-bundle.js')).status).toBe(200);
  });

  it('builds every request and response on the prototypes Express gives them, so Express swaps none per request', async () => {
    const operator = await createOperator(db.pool);
    const app = createTestPartnerApp(db.pool);
    const own = createHttpServer(app);
    const born: boolean[] = [];
    // Runs before Express sees the request: what Node's server constructed, not what Express made of it.
    own.prependListener('request', (req, res) => born.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response));
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(own.address() as AddressInfo).port}`;
      const products = await request(url, 'GET', '/api/v2/ota/partner/products', { key: operator.ota, headers: { 'x-request-id': 'proto-check' } });
      expect(products.status).toBe(200);
      expect(products.headers.get('x-request-id')).toBe('proto-check');
      expect(products.body).toEqual((await request(server.url, 'GET', '/api/v2/ota/partner/products', { key: operator.ota })).body);
      const unknown = await request(url, 'GET', '/nowhere', { key: operator.ota });
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(born).toEqual([true, true]);
    } finally {
      await new Promise<void>((resolve) => own.close(() => resolve()));
    }
  });

  it('answers the health probes', async () => {
    expect((await request(server.url, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(server.url, 'GET', '/readyz')).body).toEqual({ status: 'ready', checks: { database: true } });
  });
});
