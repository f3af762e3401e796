// The idempotency module's pure verdicts: the request hash that tells a retry from another request under the same
// key (member order does not matter, values do), and the verdict on a write whose dedupe key was already taken.
import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashRequest, judgeRepeat } from '../src/idempotency.js';

describe('hashRequest', () => {
  it('is the SHA-256 of the JSON with every object’s members sorted, arrays kept in order', () => {
    const body = { b: 1, a: [2, { d: 'x', c: null }], 'é"': true };
    expect(hashRequest(body)).toBe(hash('sha256', '{"a":[2,{"c":null,"d":"x"}],"b":1,"é\\"":true}', 'hex'));
    expect(hashRequest(body)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('does not depend on the order of members, at any depth', () => {
    expect(hashRequest({ Date: '2026-06-10', Customer: { LastName: 'Silva', FirstName: 'Ana' }, Participants: 2 })).toBe(
      hashRequest({ Participants: 2, Customer: { FirstName: 'Ana', LastName: 'Silva' }, Date: '2026-06-10' }),
    );
  });

  it('tells apart any change of a value, its type, the order of an array, or a member added', () => {
    const hashes = [
      { Participants: 2 },
      { Participants: 3 },
      { Participants: '2' },
      { Participants: 2.5 },
      { Participants: null },
      { Participants: [2] },
      { Participants: 2, Note: null },
      {},
      { Tags: ['a', 'b'] },
      { Tags: ['b', 'a'] },
      { Tags: { 0: 'a', 1: 'b' } },
      [],
      'Participants',
    ].map(hashRequest);
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it('hashes a request without a body as JSON null', () => {
    expect(hashRequest(undefined)).toBe(hashRequest(null));
    expect(hashRequest(undefined)).not.toBe(hashRequest({}));
  });
});

describe('judgeRepeat', () => {
  const HASH = 'a'.repeat(64);

  it('replays the answer of the same request once its first write has committed', () => {
    expect(judgeRepeat({ requestHash: HASH, concurrent: false }, HASH)).toBe('replay');
  });

  it('says the same request is still in progress while the first write has not committed', () => {
    expect(judgeRepeat({ requestHash: HASH, concurrent: true }, HASH)).toBe('in-progress');
  });

  it('calls another request under the key a conflict, also while the first is running', () => {
    expect(judgeRepeat({ requestHash: HASH, concurrent: false }, 'b'.repeat(64))).toBe('conflict');
    expect(judgeRepeat({ requestHash: HASH, concurrent: true }, 'b'.repeat(64))).toBe('conflict');
  });

  it('never replays for a holder without a hash (a dedupe key no request sent), nor for a request without one', () => {
    expect(judgeRepeat({ requestHash: null, concurrent: false }, null)).toBe('conflict');
    expect(judgeRepeat({ requestHash: null, concurrent: false }, HASH)).toBe('conflict');
    expect(judgeRepeat({ requestHash: HASH, concurrent: false }, null)).toBe('conflict');
  });
});
