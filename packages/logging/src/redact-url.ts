// URLs as a log line may show them: a connection URL with its password masked, everything else (host, port, user) kept
// so the line still says where the process is trying to connect; a request's path with its secret segments masked.

export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

// The paths that carry a secret: the booking page's manage and waitlist claim links (/book/{Slug}/manage/{Token},
// /book/{Slug}/claim/{Token}) and the shop API's operations on a customer's booking or offer
// (/api/v2/shop/{Slug}/holds/{Token}..., /bookings/{Token}..., /waitlist-offers/{Token}...). The token opens
// the booking to whoever holds it, so it must not reach a log line, where everyone who reads logs would hold it.
// Case-insensitive, as Express routes.
const SECRET_PATH_SEGMENTS = [/^(\/book\/[^/?#]+\/(?:manage|claim)\/)[^/?#]+/i, /^(\/api\/v2\/shop\/[^/?#]+\/(?:holds|bookings|waitlist-offers)\/)[^/?#]+/i];

/** A request's URL or path as a log line may show it: a secret segment (a booking token) replaced by `***`. */
export function redactRequestPath(url: string): string {
  let redacted = url;
  for (const pattern of SECRET_PATH_SEGMENTS) redacted = redacted.replace(pattern, '$1***');
  return redacted;
}
