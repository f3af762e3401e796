// What Node's HTTP parser refuses, and CONNECT, answered as problem documents on the raw socket: the status for each
// parser error, the path as instance when it can be read, nothing written once an answer has begun.
import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { answerClientErrors, answerConnectRequests } from '../src/client-errors.js';

const BASE = 'https://problems.example.com';

/** A socket that records what is written to it and whether it was destroyed. */
function socketOf(response: unknown = null, writable = true) {
  const socket = {
    writable,
    _httpMessage: response,
    written: [] as string[],
    destroyed: false,
    write(text: string) {
      socket.written.push(text);
      return true;
    },
    destroy() {
      socket.destroyed = true;
    },
  };
  return socket;
}

/** The status line, headers and JSON body of a raw HTTP answer. */
function parseAnswer(raw: string) {
  const [head, body] = raw.split('\r\n\r\n') as [string, string];
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]));
  return { statusLine, headers, body: JSON.parse(body) as Record<string, unknown>, rawBody: body };
}

const parserError = (code: string, rawPacket?: string) =>
  Object.assign(new Error(code), { code, ...(rawPacket ? { rawPacket: Buffer.from(rawPacket, 'latin1') } : {}) });

describe('answerClientErrors', () => {
  const answer = answerClientErrors({ problemBase: BASE });

  it('answers headers over the limit with 431, the path of the request line as instance, and closes', () => {
    const socket = socketOf();
    answer(parserError('HPE_HEADER_OVERFLOW', 'GET /api/v2/bookings/ABCD?x=1 HTTP/1.1\r\nX-Big: aaaa'), socket as never);
    expect(socket.destroyed).toBe(true);
    const { statusLine, headers, body, rawBody } = parseAnswer(socket.written.join(''));
    expect(statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(headers['Content-Type']).toBe('application/problem+json');
    expect(headers['Content-Length']).toBe(String(Buffer.byteLength(rawBody)));
    expect(headers.Connection).toBe('close');
    expect(body).toMatchObject({ type: `${BASE}/headers-too-large`, status: 431, instance: '/api/v2/bookings/ABCD', requestId: headers['X-Request-Id'] });
    expect(headers['X-Request-Id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives each parser error its problem', () => {
    const statusOf = (code: string) => {
      const socket = socketOf();
      answer(parserError(code), socket as never);
      return parseAnswer(socket.written.join('')).body;
    };
    expect(statusOf('HPE_CHUNK_EXTENSIONS_OVERFLOW')).toMatchObject({ status: 413, type: `${BASE}/payload-too-large` });
    expect(statusOf('ERR_HTTP_REQUEST_TIMEOUT')).toMatchObject({ status: 408, type: `${BASE}/request-timeout` });
    expect(statusOf('HPE_INVALID_EOF_STATE')).toMatchObject({ status: 400, type: `${BASE}/invalid-request` });
    expect(statusOf('HPE_INVALID_METHOD')).toMatchObject({ status: 400, detail: 'The request is not valid HTTP/1.1.' });
  });

  it('leaves instance out when the request line cannot be read', () => {
    const socket = socketOf();
    answer(parserError('HPE_INVALID_METHOD', '\x16\x03\x01 binary'), socket as never);
    expect(parseAnswer(socket.written.join('')).body).not.toHaveProperty('instance');
  });

  it("uses the request's own id and path when Express already has it (a timeout mid-request)", () => {
    const socket = socketOf({ headersSent: false, req: { id: 'req-9', originalUrl: '/api/v2/usage/entries?x=1', url: '/entries' } });
    answer(parserError('ERR_HTTP_REQUEST_TIMEOUT'), socket as never);
    const { headers, body } = parseAnswer(socket.written.join(''));
    expect(headers['X-Request-Id']).toBe('req-9');
    expect(body).toMatchObject({ instance: '/api/v2/usage/entries', requestId: 'req-9' });
  });

  it('writes nothing on a reset connection, a socket that cannot be written, or an answer already begun', () => {
    for (const [error, socket] of [
      [parserError('ECONNRESET'), socketOf()],
      [parserError('HPE_INVALID_METHOD'), socketOf(null, false)],
      [parserError('ERR_HTTP_REQUEST_TIMEOUT'), socketOf({ headersSent: true })],
    ] as const) {
      answer(error, socket as never);
      expect(socket.written).toEqual([]);
      expect(socket.destroyed).toBe(true);
    }
  });
});

describe('answerConnectRequests', () => {
  it('answers CONNECT with 405, an empty Allow, and a gentle close', () => {
    const written: string[] = [];
    const socket = {
      on: () => socket,
      once: () => socket,
      resume: () => socket,
      end: (last?: string) => {
        if (last) written.push(last);
      },
      destroy: () => undefined,
    };
    answerConnectRequests({ problemBase: BASE })({ method: 'CONNECT', url: 'example.com:443' } as http.IncomingMessage, socket as never);
    const { statusLine, headers, body } = parseAnswer(written.join(''));
    expect(statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(headers.Allow).toBe('');
    expect(body).toMatchObject({ type: `${BASE}/method-not-allowed`, detail: 'CONNECT is not served here: this server is not a proxy.' });
    expect(body).not.toHaveProperty('instance');
  });
});
