// The usage API's shared surface: probes, the OpenAPI document with the usage operations, unknown routes.
import { describe, expect, it } from 'vitest';
import { request } from '@backbone/testkit';
import { PROBLEM_BASE, useUsageApi } from './support.js';

const { server } = useUsageApi();

describe('usage API app', () => {
  it('is ready when PostgreSQL and Redis answer', async () => {
    expect((await request(server.url, 'GET', '/healthz')).status).toBe(200);
    const ready = await request(server.url, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ database: true, redis: true });
  });

  it('documents the usage operations in /openapi.json', async () => {
    const res = await request(server.url, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    const paths = res.body.paths as Record<string, Record<string, { operationId: string; security: unknown }>>;
    expect(paths['/api/v2/usage/meters']?.post?.operationId).toBe('recordUsageEntry');
    expect(paths['/api/v2/usage/meters']?.get?.operationId).toBe('getUsageSummary');
    expect(paths['/api/v2/usage/meters/batch']?.post?.operationId).toBe('recordUsageEntries');
    expect(paths['/api/v2/usage/meters']?.post?.security).toEqual([{ bearerAuth: ['usage:write'] }]);
  });

  it('answers an unknown route with a 404 problem', async () => {
    const res = await request(server.url, 'GET', '/api/v2/usage/nothing');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/not-found`, status: 404, instance: '/api/v2/usage/nothing' });
  });
});
