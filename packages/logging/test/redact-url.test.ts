// A URL in a log line shows where the process connects but never its password.
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../src/redact-url.js';

describe('redactUrl', () => {
  it('masks the password and keeps the user, host, port and path', () => {
    expect(redactUrl('redis://default:s3cr3t@redis.internal:6380/2')).toBe('redis://default:***@redis.internal:6380/2');
    expect(redactUrl('postgres://backbone:pw@db:5432/backbone')).toBe('postgres://backbone:***@db:5432/backbone');
  });

  it('leaves a URL without a password as it is', () => {
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(redactUrl('redis://user@host:6379')).toBe('redis://user@host:6379');
  });
});
