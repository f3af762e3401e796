// The local gateway's (npm start) connections, in front of the real partner API: a kept-alive connection stays open
// as long as Keep-Alive says, so a client coming back just before that time is answered, and so does one still
// sending an upload the API answered early; 300 uploads that never finish hold nobody else up; an answer cut off upstream is cut off for the client too; CONNECT gets a problem, from
// the gateway and from the API alike.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, KEEP_ALIVE_TIMEOUT_MS } from '@backbone/http';
import { createTestPartnerApp, PROBLEM_BASE } from '@backbone/test-apps/partner-api';
import { createTestAccount, request, sampleFile, sendRaw, useTestDatabase } from '@backbone/testkit';
import { createGateway } from '../gateway.js';

const PRODUCTS = '/api/v2/ota/partner/products';
const FILES = '/api/v2/ota/partner/files';
/** The gateway's keep-alive time in the reuse test, shorter than the real one so the test waits seconds, not a minute. */
const KEEP_ALIVE_S = 3;

const db = useTestDatabase();
let api: http.Server;
let gateway: http.Server;
let shortKeepAlive: http.Server;
const urls = { direct: '', gateway: '', shortKeepAlive: '' };
let key: string;

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: http.Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

beforeAll(async () => {
  // A quota so large that no partner's share of unfinished uploads refuses one: this file is about the gateway.
  api = createHttpServer(createTestPartnerApp(db.pool, { fileQuotaBytes: 1e12 }));
  urls.direct = await listen(api);
  const targets = { partnerApi: urls.direct, usageApi: urls.direct, operatorApi: urls.direct };
  gateway = createGateway(targets, { problemBase: PROBLEM_BASE });
  urls.gateway = await listen(gateway);
  shortKeepAlive = createGateway(targets, { problemBase: PROBLEM_BASE, keepAliveTimeoutMs: KEEP_ALIVE_S * 1000 });
  urls.shortKeepAlive = await listen(shortKeepAlive);
  key = await (await createTestAccount(db.pool)).keyWith(['ota']);
});

afterAll(async () => {
  await close(shortKeepAlive);
  await close(gateway);
  await close(api);
});

/** One connection, read as it comes: each answer in turn (framed by Content-Length), and when the server closed it. */
class RawConnection {
  private readonly socket: net.Socket;
  private buffer = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  closedAt: number | null = null;

  constructor(baseUrl: string) {
    this.socket = net.connect(Number(new URL(baseUrl).port), '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.waiting?.();
    });
    this.socket.on('error', () => undefined);
    this.socket.on('close', () => {
      this.closedAt = Date.now();
      this.waiting?.();
    });
  }

  write(bytes: string | Buffer): Promise<void> {
    return new Promise<void>((resolve) => this.socket.write(bytes, () => resolve()));
  }

  /** The next answer on the connection, or null when the server closes it first. */
  async answer(): Promise<{ status: number; headers: Record<string, string>; body: string } | null> {
    for (;;) {
      const headEnd = this.buffer.indexOf('\r\n\r\n');
      if (headEnd !== -1) {
        const [statusLine = '', ...lines] = this.buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
        const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
        const end = headEnd + 4 + Number(headers['content-length'] ?? 0);
        if (this.buffer.length >= end) {
          const body = this.buffer.subarray(headEnd + 4, end).toString('utf8');
          this.buffer = this.buffer.subarray(end);
          return { status: Number(statusLine.split(' ')[1]), headers, body };
        }
      }
      if (this.closedAt !== null) return null;
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = null;
    }
  }

  /** Resolves when the server has closed the connection. */
  async closed(): Promise<number> {
    while (this.closedAt === null) {
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = null;
    }
    return this.closedAt;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

const getProducts = (apiKey: string) => `GET ${PRODUCTS} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${apiKey}\r\n\r\n`;

describe('keep-alive', () => {
  it("advertises the APIs' idle time, 65 s, whatever the API behind it says", async () => {
    for (const url of [urls.direct, urls.gateway]) {
      const res = await request(url, 'GET', PRODUCTS, { key });
      expect(res.status).toBe(200);
      expect(res.headers.get('keep-alive'), url).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
    }
  });

  it('keeps an idle connection as long as it says: 24 clients coming back just before that time are all answered', async () => {
    const connections = Array.from({ length: 24 }, () => new RawConnection(urls.shortKeepAlive));
    try {
      const outcomes = await Promise.all(
        connections.map(async (connection) => {
          await connection.write(getProducts(key));
          const first = await connection.answer();
          expect(first?.status).toBe(200);
          expect(first?.headers['connection']).toBe('keep-alive');
          expect(first?.headers['keep-alive']).toBe(`timeout=${KEEP_ALIVE_S}`);
          // Counted from the answer's arrival, so later than the gateway counts: a client cannot come closer.
          await new Promise((resolve) => setTimeout(resolve, KEEP_ALIVE_S * 1000 - 100));
          await connection.write(getProducts(key));
          const second = await connection.answer();
          return { status: second?.status ?? 'no answer: the connection was closed', secondAnsweredAt: Date.now() };
        }),
      );
      expect(outcomes.map((o) => o.status)).toEqual(Array(24).fill(200));
      // And the gateway does close an idle connection, not before the time it said: counted for each from its own
      // second answer (the last of the 24 can come seconds after the first on a loaded machine).
      const closedAfter = await Promise.all(connections.map(async (connection, i) => (await connection.closed()) - outcomes[i]!.secondAnsweredAt));
      for (const ms of closedAfter) expect(ms).toBeGreaterThanOrEqual(KEEP_ALIVE_S * 1000 - 50);
    } finally {
      for (const connection of connections) connection.destroy();
    }
  });
});

describe('an upload answered before its body is all sent', () => {
  it("keeps its connection while the client sends the rest, after a pause longer than Node's default keep-alive", async () => {
    // An API answers some uploads before reading them (401, or 429 when rate-limited) and reads the rest to keep the
    // connection; under load the rest can stall for seconds. The gateway closed such a connection after 6 s without a
    // byte (Node's 5 s keep-alive, counted from the answer): clients still sending got EPIPE. Now it waits 65 s, as the API.
    const connection = new RawConnection(urls.gateway);
    try {
      const body = sampleFile('application/pdf', 100_000);
      await connection.write(
        Buffer.concat([
          Buffer.from(
            `POST ${FILES} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer bk_not-a-key\r\nContent-Type: application/pdf\r\nContent-Length: ${body.length}\r\n\r\n`,
          ),
          body.subarray(0, 1024),
        ]),
      );
      expect((await connection.answer())?.status).toBe(401);
      await new Promise((resolve) => setTimeout(resolve, 7_000));
      await connection.write(body.subarray(1024));
      await connection.write(getProducts(key));
      expect((await connection.answer())?.status ?? 'no answer: the connection was closed').toBe(200);
    } finally {
      connection.destroy();
    }
  });
});

describe('slow clients', () => {
  it('300 uploads that never finish hold up no other request, of another partner or the same one', { timeout: 180_000 }, async () => {
    const slowKey = await (await createTestAccount(db.pool)).keyWith(['ota']);
    const other = await (await createTestAccount(db.pool)).keyWith(['ota']);
    const firstBytes = sampleFile('application/pdf', 1024);
    const slow = Array.from({ length: 300 }, () => new RawConnection(urls.gateway));
    try {
      // 10 MiB announced, 1 KiB sent, the rest never.
      await Promise.all(
        slow.map((connection) =>
          connection.write(
            Buffer.concat([
              Buffer.from(
                `POST ${FILES} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${slowKey}\r\nContent-Type: application/pdf\r\nContent-Length: 10485760\r\n\r\n`,
              ),
              firstBytes,
            ]),
          ),
        ),
      );
      const others = await Promise.all([
        request(urls.gateway, 'GET', PRODUCTS, { key: other }),
        request(urls.gateway, 'POST', FILES, { key: other, rawBody: sampleFile('application/pdf', 20_000), headers: { 'content-type': 'application/pdf' } }),
        request(urls.gateway, 'GET', PRODUCTS, { key: slowKey }),
      ]);
      // Answered while every slow upload is still open: none of them had to end (a timeout, a 408) to make room.
      expect(slow.filter((connection) => connection.closedAt !== null)).toHaveLength(0);
      expect(others.map((o) => o.status)).toEqual([200, 201, 200]);
      // Every slow upload reached the API, none is queued in the gateway.
      await expect
        .poll(async () => (await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM files WHERE status = 'pending'`)).rows[0]!.n, {
          timeout: 60_000,
          interval: 100,
        })
        .toBe(300);
      expect(slow.filter((connection) => connection.closedAt !== null)).toHaveLength(0);
    } finally {
      for (const connection of slow) connection.destroy();
    }
  });
});

describe('an answer cut off upstream', () => {
  it('is cut off for the client too, not left open waiting for the rest', async () => {
    // An API that dies halfway through an answer: its headers promise 100 bytes, 7 come, then the connection goes.
    const dying = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
      res.write('partial', () => res.socket?.destroy());
    });
    const dyingUrl = await listen(dying);
    const front = createGateway({ partnerApi: urls.direct, usageApi: dyingUrl, operatorApi: urls.direct }, { problemBase: PROBLEM_BASE });
    const frontUrl = await listen(front);
    try {
      const res = await sendRaw(frontUrl, 'GET /api/v2/usage/meters HTTP/1.1\r\nHost: test\r\n\r\n', { timeoutMs: 30_000 });
      expect(res.status).toBe(200);
      expect(res.text).toBe('partial');
      expect(res.closedAfterMs).not.toBeNull();
    } finally {
      await close(front);
      await close(dying);
    }
  });
});

describe.each(['direct', 'gateway'] as const)('CONNECT %s', (via) => {
  it('is answered with a 405 problem, and the connection closed', async () => {
    const res = await sendRaw(urls[via], 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', { timeoutMs: 30_000 });
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/method-not-allowed`, title: 'Method Not Allowed', status: 405, detail: expect.any(String) });
    expect(res.headers.get('x-request-id')).toBe(res.body.requestId);
    expect(res.closedAfterMs).not.toBeNull();
  });
});
