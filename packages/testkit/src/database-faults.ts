// PostgreSQL failing the way it does in production, for tests of what the APIs answer then: a TCP proxy in front of the
// real server that can cut its connections and refuse new ones (a server that died, a network that broke), and a
// stand-in server that answers every connection attempt with one FATAL error (starting up, in recovery, full).
import net from 'node:net';
import { expect } from 'vitest';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '@backbone/http';
import type { ApiResponse } from './fixtures.js';

/** Asserts the answer an outage must get: a 503 `/unavailable` problem with Retry-After. */
export function expectUnavailable(response: ApiResponse, problemBase: string): void {
  const problem = (response.body ?? {}) as Record<string, unknown>;
  expect({ status: response.status, type: problem.type, retryAfter: response.headers.get('retry-after') }).toEqual({
    status: 503,
    type: `${problemBase}/unavailable`,
    retryAfter: String(UNAVAILABLE_RETRY_AFTER_SECONDS),
  });
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(problem).toMatchObject({ status: 503, title: 'Service Unavailable' });
  expect(typeof problem.detail === 'string' && typeof problem.requestId === 'string').toBe(true);
}

export interface DatabaseProxy {
  /** The target's URL with the proxy's host and port. */
  url: string;
  /** Ends every connection through the proxy at once, as a server that dies does (the client reads EOF). */
  cut(): void;
  /**
   * Arms a cut of the next connection that sends `marker` (a statement's text or prepared name, `COMMIT`): that message
   * reaches the server whole, then the client's side is cut at once, so the server runs it while the client never
   * hears back (a connection lost with a change on its way). Resolves once it fired.
   */
  cutAfterSending(marker: string): Promise<void>;
  /**
   * Arms the end of the database for the app once the server has answered the next message carrying `marker`: the
   * answer reaches the client, then every connection is cut and new ones refused (until accept()), as a server that
   * dies right after a commit does. Resolves once it fired.
   */
  goneAfterAnswerTo(marker: string): Promise<void>;
  /** Stops listening, at once: a connection attempt is refused (ECONNREFUSED) until accept(). Open connections stay. */
  refuse(): void;
  /** Listens again, on the same port. */
  accept(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP proxy on 127.0.0.1 in front of the PostgreSQL at `targetUrl`. */
export async function startDatabaseProxy(targetUrl: string): Promise<DatabaseProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A cut or a reset is what the test wants; the other side of the pair is ended with it.
    socket.on('error', () => undefined);
  };
  let armed: { marker: Buffer; fired: () => void } | null = null;
  let armedAnswer: { marker: Buffer; fired: () => void } | null = null;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    track(client);
    track(upstream);
    let detached = false;
    let goneOnAnswer: (() => void) | null = null;
    client.on('data', (chunk: Buffer) => {
      if (armedAnswer && chunk.includes(armedAnswer.marker)) {
        goneOnAnswer = armedAnswer.fired;
        armedAnswer = null;
      }
      if (armed && chunk.includes(armed.marker)) {
        const { fired } = armed;
        armed = null;
        // The server gets the message and an orderly end after it; only the client is cut.
        detached = true;
        upstream.end(chunk);
        client.destroy();
        fired();
        return;
      }
      if (!upstream.write(chunk)) {
        client.pause();
        upstream.once('drain', () => client.resume());
      }
    });
    upstream.on('data', (chunk: Buffer) => {
      client.write(chunk);
      if (goneOnAnswer) {
        const fired = goneOnAnswer;
        goneOnAnswer = null;
        // The answer is on its way out; then the server is gone for everyone.
        client.end(() => {
          refuse();
          cut();
          fired();
        });
      }
    });
    client.on('end', () => upstream.end());
    client.on('close', () => {
      if (!detached) upstream.destroy();
    });
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  const cut = () => {
    for (const socket of sockets) socket.destroy();
  };
  // close() stops listening at once; its callback would wait for the open connections to end.
  const refuse = () => {
    if (server.listening) server.close();
  };
  return {
    url: url.toString(),
    goneAfterAnswerTo: (marker) =>
      new Promise<void>((resolve) => {
        armedAnswer = { marker: Buffer.from(marker), fired: resolve };
      }),
    cutAfterSending: (marker) =>
      new Promise<void>((resolve) => {
        armed = { marker: Buffer.from(marker), fired: resolve };
      }),
    cut,
    refuse,
    accept: () => (server.listening ? Promise.resolve() : listen(port)),
    async close() {
      refuse();
      cut();
    },
  };
}

export interface FailingPostgres {
  /** A PostgreSQL URL whose every connection attempt is answered with the error. */
  url: string;
  close(): Promise<void>;
}

/**
 * A server that speaks just enough of the PostgreSQL protocol to refuse a connection the way PostgreSQL does: it
 * declines SSL, reads the startup message and answers with a FATAL ErrorResponse carrying `code` (SQLSTATE) and
 * `message`, then closes, as a server that is starting up (57P03) or has no slot left (53300) does.
 */
export async function startFailingPostgres(error: { code: string; message: string }): Promise<FailingPostgres> {
  const field = (type: string, value: string) => Buffer.concat([Buffer.from(type), Buffer.from(value, 'utf8'), Buffer.from([0])]);
  const fields = Buffer.concat([field('S', 'FATAL'), field('V', 'FATAL'), field('C', error.code), field('M', error.message), Buffer.from([0])]);
  const length = Buffer.alloc(4);
  length.writeInt32BE(fields.length + 4);
  const errorResponse = Buffer.concat([Buffer.from('E'), length, fields]);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      // Each startup packet is an int32 length (itself included) and an int32 code; SSLRequest's code is 80877103.
      while (received.length >= 8 && received.length >= received.readInt32BE(0)) {
        const packetLength = received.readInt32BE(0);
        const sslRequest = packetLength === 8 && received.readInt32BE(4) === 80877103;
        received = received.subarray(packetLength);
        if (sslRequest) socket.write('N');
        else {
          socket.end(errorResponse);
          return;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
