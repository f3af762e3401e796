// A URL in a log line shows where the process connects but never its password, and a request's path never its token.
import { describe, expect, it } from 'vitest';
import { redactRequestPath, redactUrl } from '../src/redact-url.js';

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

describe('redactRequestPath', () => {
  const token = 'Zm9vYmFyLWJhei1xdXV4LTEyMzQ1Njc4OTBhYmNkZWY';

  it("masks the booking token of the page's manage link and of the shop API's paths, keeping the rest", () => {
    expect(redactRequestPath(`/book/sea-kayak/manage/${token}`)).toBe('/book/sea-kayak/manage/***');
    expect(redactRequestPath(`/book/sea-kayak/manage/${token}?utm=mail`)).toBe('/book/sea-kayak/manage/***?utm=mail');
    expect(redactRequestPath(`/api/v2/shop/sea-kayak/holds/${token}/confirm`)).toBe('/api/v2/shop/sea-kayak/holds/***/confirm');
    expect(redactRequestPath(`/api/v2/shop/sea-kayak/bookings/${token}`)).toBe('/api/v2/shop/sea-kayak/bookings/***');
    expect(redactRequestPath(`/API/V2/Shop/sea-kayak/Bookings/${token}/move`)).toBe('/API/V2/Shop/sea-kayak/Bookings/***/move');
    // A waitlist offer's claim link and its shop API operations.
    expect(redactRequestPath(`/book/sea-kayak/claim/${token}`)).toBe('/book/sea-kayak/claim/***');
    expect(redactRequestPath(`/api/v2/shop/sea-kayak/waitlist-offers/${token}/claim`)).toBe('/api/v2/shop/sea-kayak/waitlist-offers/***/claim');
  });

  it('leaves every other path as it is', () => {
    for (const path of ['/book/sea-kayak', '/book/assets/index-abc.js', '/api/v2/shop/sea-kayak/holds', '/api/v2/ota/partner/products?name=x'])
      expect(redactRequestPath(path)).toBe(path);
  });
});
