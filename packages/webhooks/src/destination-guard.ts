// The server-side request forgery guard for webhook destinations: a partner's URL must not make us call our own
// network (loopback, private ranges, cloud metadata). Checked at registration (vetDestination) and again at every
// delivery, where guardedLookup makes the address checked the address connected to.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface DestinationPolicy {
  /** Host names or IP literals (lowercase) exempt from the https and public-address rules: local use and tests. */
  allowedHosts: readonly string[];
}

export class DestinationRefusedError extends Error {
  constructor(
    readonly reason: string,
    /** The host did not resolve: refused at registration, but at delivery a failure like any other (DNS comes back). */
    readonly unresolved = false,
  ) {
    super(`webhook destination refused: ${reason}`);
    this.name = 'DestinationRefusedError';
  }
}

// Named apart so the refusal says what they are; every one of them is also outside ipaddr.js's 'unicast' range.
const CLOUD_METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200', '192.0.0.192']);
// IPv4-compatible IPv6 (::a.b.c.d, deprecated by RFC 4291) is 'unicast' to ipaddr.js but embeds an IPv4 address.
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** What kind of non-public address this is ("a loopback address"), or null when it is public unicast. */
function nonPublicKind(address: string): string | null {
  // What cannot be classified is refused rather than thrown: this runs inside a socket's lookup callback too.
  if (!ipaddr.isValid(address)) return 'an address that cannot be classified';
  // process() turns IPv4-mapped IPv6 (::ffff:127.0.0.1) into the IPv4 address it stands for.
  const parsed = ipaddr.process(address);
  if (CLOUD_METADATA_ADDRESSES.has(parsed.toString())) return 'a cloud metadata address';
  const range = parsed.range();
  // Only plain public unicast passes: everything ipaddr.js names (private, loopback, linkLocal, uniqueLocal,
  // multicast, unspecified, carrierGradeNat, reserved, 6to4, teredo, ...) may reach something that is not the partner's.
  if (range !== 'unicast') return `a ${range} address`;
  if (parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE)) return 'an IPv4-compatible address';
  return null;
}

function isAllowed(host: string, policy: DestinationPolicy): boolean {
  return policy.allowedHosts.includes(host.toLowerCase());
}

/** The refusal for the first non-public address a host resolves to, or null when all are public. */
function refusalForResolved(host: string, addresses: readonly LookupAddress[]): DestinationRefusedError | null {
  for (const { address } of addresses) {
    const kind = nonPublicKind(address);
    if (kind !== null) return new DestinationRefusedError(`${host} resolves to ${address}, ${kind}`);
  }
  return null;
}

function lookupAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });
}

/** Parses and vets a webhook URL: https only (http only for allowed hosts), no credentials in it; resolves the host
 *  (every address) and refuses loopback, private, link-local, unique-local, multicast, unspecified (0.0.0.0, ::),
 *  carrier-grade NAT, IPv4-mapped forms of those, and cloud-metadata addresses (169.254.169.254, fd00:ec2::254, ...),
 *  unless the host is allowed. */
export async function vetDestination(url: string, policy: DestinationPolicy): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DestinationRefusedError('not an absolute URL');
  }
  if (parsed.username !== '' || parsed.password !== '') throw new DestinationRefusedError('credentials in the URL');
  // WHATWG URL has already normalised decimal, octal and hex IPv4 forms (http://2130706433/ is 127.0.0.1).
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const allowed = isAllowed(host, policy);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && allowed)) {
    throw new DestinationRefusedError(parsed.protocol === 'http:' ? `http to ${host} (https only)` : `${parsed.protocol} (https only)`);
  }
  if (allowed) return parsed;
  if (isIP(host) !== 0) {
    const kind = nonPublicKind(host);
    if (kind !== null) throw new DestinationRefusedError(`${host} is ${kind}`);
    return parsed;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(host);
  } catch {
    throw new DestinationRefusedError(`${host} does not resolve`, true);
  }
  const refusal = refusalForResolved(host, addresses);
  if (refusal !== null) throw refusal;
  return parsed;
}

/** A `lookup` for node:http/https request options: resolves like dns.lookup but fails with DestinationRefusedError
 *  when any resolved address is not public (unless allowed), so the address checked is the address connected to
 *  (no DNS-rebinding window between check and connect). Node does not call `lookup` for an IP-literal host, so a
 *  caller still vets the URL itself (vetDestination) before each request. */
export function guardedLookup(policy: DestinationPolicy): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', undefined);
        return;
      }
      const refusal = isAllowed(hostname, policy) ? null : refusalForResolved(hostname, addresses);
      if (refusal !== null) {
        callback(refusal, '', undefined);
        return;
      }
      const first = addresses[0];
      if (options.all === true) callback(null, addresses);
      else if (first === undefined) callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', undefined);
      else callback(null, first.address, first.family);
    });
  };
}

/** The policy a comma-separated host list (WEBHOOK_ALLOWED_HOSTS) names: trimmed, lowercase, IPv6 without brackets. */
export function destinationPolicyFrom(allowedHosts: string): DestinationPolicy {
  const hosts = allowedHosts
    .split(',')
    .map((host) =>
      host
        .trim()
        .toLowerCase()
        .replace(/^\[(.*)\]$/, '$1'),
    )
    .filter((host) => host !== '');
  return { allowedHosts: hosts };
}
