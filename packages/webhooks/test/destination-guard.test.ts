import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DestinationRefusedError, generateSecret, guardedLookup, vetDestination, type DestinationPolicy } from '../src/index.js';

const noAllowance: DestinationPolicy = { allowedHosts: [] };

async function refusal(url: string, policy: DestinationPolicy = noAllowance): Promise<string> {
  const error: unknown = await vetDestination(url, policy).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DestinationRefusedError);
  return (error as DestinationRefusedError).reason;
}

describe('vetDestination', () => {
  it.each([
    ['https://127.0.0.1/hook', 'loopback'],
    ['https://127.1.2.3/hook', 'loopback'],
    ['https://10.0.0.1/hook', 'private'],
    ['https://172.16.5.4/hook', 'private'],
    ['https://192.168.1.1/hook', 'private'],
    ['https://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['https://169.254.1.1/hook', 'linkLocal'],
    ['https://100.64.0.1/hook', 'carrierGradeNat'],
    ['https://100.100.100.200/hook', 'cloud metadata'],
    ['https://0.0.0.0/hook', 'unspecified'],
    ['https://224.0.0.1/hook', 'multicast'],
    ['https://255.255.255.255/hook', 'broadcast'],
    ['https://[::1]/hook', 'loopback'],
    ['https://[::]/hook', 'unspecified'],
    ['https://[fe80::1]/hook', 'linkLocal'],
    ['https://[fc00::1]/hook', 'uniqueLocal'],
    ['https://[fd00:ec2::254]/hook', 'cloud metadata'],
    ['https://[ff02::1]/hook', 'multicast'],
    ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['https://[::ffff:169.254.169.254]/hook', 'cloud metadata'],
    ['https://[::127.0.0.1]/hook', 'IPv4-compatible'],
    ['https://2130706433/hook', 'loopback'],
    ['https://0x7f000001/hook', 'loopback'],
    ['https://0177.0.0.1/hook', 'loopback'],
    ['https://127.1/hook', 'loopback'],
    ['https://localhost/hook', 'loopback'],
  ])('refuses %s (%s)', async (url, kind) => {
    expect(await refusal(url)).toContain(kind);
  });

  it('says which host and address a name resolved to', async () => {
    expect(await refusal('https://localhost:8443/hook')).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a loopback address$/);
  });

  it.each([
    ['http://example.com/hook', 'https only'],
    ['ftp://example.com/hook', 'https only'],
    ['file:///etc/passwd', 'https only'],
    ['https://user:pass@93.184.216.34/hook', 'credentials'],
    ['https://user@93.184.216.34/hook', 'credentials'],
    ['not a url', 'not an absolute URL'],
    ['/relative/path', 'not an absolute URL'],
    ['https://no-such-host.invalid/hook', 'does not resolve'],
  ])('refuses %s (%s)', async (url, why) => {
    expect(await refusal(url)).toContain(why);
  });

  it('accepts a public https address and returns the parsed URL', async () => {
    const url = await vetDestination('https://93.184.216.34:8443/hooks?x=1', noAllowance);
    expect(url.href).toBe('https://93.184.216.34:8443/hooks?x=1');
    expect((await vetDestination('https://[2606:4700::1111]/hook', noAllowance)).hostname).toBe('[2606:4700::1111]');
  });

  it('lets allowed hosts through, over http too, and nothing else', async () => {
    const policy = { allowedHosts: ['127.0.0.1', 'localhost', '::1'] };
    expect((await vetDestination('http://127.0.0.1:9000/hook', policy)).port).toBe('9000');
    expect((await vetDestination('https://2130706433/hook', policy)).hostname).toBe('127.0.0.1');
    expect((await vetDestination('http://localhost/hook', policy)).hostname).toBe('localhost');
    expect((await vetDestination('http://[::1]/hook', policy)).hostname).toBe('[::1]');
    expect(await refusal('https://10.0.0.1/hook', policy)).toContain('private');
    expect(await refusal('http://10.0.0.1/hook', policy)).toContain('https only');
    expect(await refusal('https://user:pw@127.0.0.1/hook', policy)).toContain('credentials');
    expect(await refusal('ftp://127.0.0.1/hook', policy)).toContain('https only');
  });
});

describe('guardedLookup', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function fetchThrough(allowedHosts: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const request = get({ host: 'localhost', port, path: '/', family: 4, lookup: guardedLookup({ allowedHosts }) }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(body));
      });
      request.on('error', reject);
    });
  }

  it('refuses to connect to a name that resolves to loopback', async () => {
    const error: unknown = await fetchThrough([]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DestinationRefusedError);
    expect((error as DestinationRefusedError).reason).toBe('localhost resolves to 127.0.0.1, a loopback address');
  });

  it('connects when the host is allowed', async () => {
    expect(await fetchThrough(['localhost'])).toBe('reached');
  });

  it('answers both the single-address and the all-addresses forms of dns.lookup', async () => {
    const lookup = guardedLookup({ allowedHosts: ['localhost'] });
    const single = await new Promise<unknown[]>((resolve) => lookup('localhost', { family: 4 }, (...args) => resolve(args)));
    expect(single).toEqual([null, '127.0.0.1', 4]);
    const all = await new Promise<unknown[]>((resolve) => lookup('localhost', { family: 4, all: true }, (...args) => resolve(args)));
    expect(all).toEqual([null, [{ address: '127.0.0.1', family: 4 }]]);
  });
});

describe('generateSecret', () => {
  it('makes a whsec_ secret that standardwebhooks signs and verifies with', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(generateSecret()).not.toBe(secret);
    const webhook = new Webhook(secret);
    const body = JSON.stringify({ type: 'booking.created', timestamp: '2026-11-23T12:00:00Z', data: {} });
    const now = new Date();
    const signature = webhook.sign('msg_1', now, body);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signature };
    expect(webhook.verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
  });
});
