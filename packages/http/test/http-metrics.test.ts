// The label of a request no operation took: one fixed name per plumbing route, `unmatched` for everything else, so a
// scan of random paths adds no series to the request metrics.
import { describe, expect, it } from 'vitest';
import { plumbingLabel } from '../src/http-metrics.js';

describe('plumbingLabel', () => {
  it('names the probes, the docs and the console', () => {
    expect(plumbingLabel('/healthz')).toBe('healthz');
    expect(plumbingLabel('/readyz')).toBe('readyz');
    expect(plumbingLabel('/openapi.json')).toBe('docs');
    expect(plumbingLabel('/docs')).toBe('docs');
    expect(plumbingLabel('/docs/swagger-ui.css')).toBe('docs');
    expect(plumbingLabel('/console')).toBe('console_static');
    expect(plumbingLabel('/console/assets/index-3f2a.js')).toBe('console_static');
  });

  it('calls every other path unmatched, look-alikes included', () => {
    for (const path of ['/', '/healthz/', '/readyz/x', '/docsx', '/consoles', '/api/v2/nothing', `/random/${'x'.repeat(50)}`]) {
      expect(plumbingLabel(path), path).toBe('unmatched');
    }
  });
});
