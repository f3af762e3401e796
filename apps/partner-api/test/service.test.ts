// The partner app as a service: the OpenAPI document of every operation behind the one base URL, the docs page,
// and the health probes.
import { describe, expect, it } from 'vitest';
import { partnerOperations, platformOperations, usageOperations } from '@backbone/contracts';
import { request } from '@backbone/testkit';
import { usePartnerApi } from './support.js';

const { server } = usePartnerApi();

describe('partner API service', () => {
  it('serves an OpenAPI 3.1 document with every operation of the base URL', async () => {
    const res = await request(server.url, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const operationIds = Object.values(res.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    for (const op of [...partnerOperations, ...usageOperations, ...platformOperations]) expect(operationIds).toContain(op.operationId);
    expect(res.body.paths['/api/v2/ota/partner/availability/{ActivityID}/timeslots'].get).toMatchObject({
      operationId: 'listAvailableTimeslots',
      security: [{ bearerAuth: ['ota'] }],
      parameters: expect.arrayContaining([expect.objectContaining({ name: 'ActivityID', in: 'path', required: true }), expect.objectContaining({ name: 'Date', in: 'query', required: true })]),
    });
    const booking = res.body.paths['/api/v2/ota/partner/booking'].post;
    expect(booking.requestBody.content['application/json'].schema.required).toEqual(['ActivityID', 'Date', 'Time', 'Participants', 'Customer']);
    expect(booking.parameters).toEqual([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]);
    expect(Object.keys(booking.responses)).toEqual(expect.arrayContaining(['201', '401', '403', '409', '422']));
  });

  it('serves human-readable docs without a CDN', async () => {
    const res = await request(server.url, 'GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).not.toMatch(/https?:\/\//);
    expect((await request(server.url, 'GET', '/docs/assets/swagger-ui-bundle.js')).status).toBe(200);
  });

  it('answers the health probes', async () => {
    expect((await request(server.url, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(server.url, 'GET', '/readyz')).body).toEqual({ status: 'ready', checks: { database: true } });
  });
});
