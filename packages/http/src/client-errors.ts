// Problems for requests that never reach Express: what Node's HTTP parser refuses (a request line or headers over
// its limit, bytes that are not HTTP, a body that ends with the connection before its Content-Length), what
// arrives too slowly (headersTimeout, requestTimeout), and CONNECT. Node answers the first with a bare status line and
// no body, and CONNECT with nothing at all; here they get a problem document like every other error. The APIs' servers
// and the local gateway both use this.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { redactRequestPath } from '@backbone/logging';
import { endLingering } from './close-unread.js';
import { PROBLEMS, problemDocument, type ProblemCode } from './problems.js';

interface ParserError extends Error {
  code?: string;
  /** The bytes the parser was looking at (headers over the limit: the request line and headers so far). */
  rawPacket?: Buffer;
}

/** The response a server is writing on the socket, if any (Node keeps it there until it is finished). */
interface SocketWithResponse extends Duplex {
  _httpMessage?: (http.ServerResponse & { req?: http.IncomingMessage & { id?: string; originalUrl?: string } }) | null;
}

// The path of a request target whose end the parser saw (a space or a '?' after it), from the start of the raw bytes.
const REQUEST_PATH = /^[A-Z]+ (\/[^ ?\r\n]*)[ ?]/;

function classify(error: ParserError): { code: ProblemCode; detail: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'headers-too-large', detail: `The request line and headers are over the ${http.maxHeaderSize} bytes this server accepts.` };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { code: 'payload-too-large', detail: 'The chunk extensions of the request body are larger than this server accepts.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request-timeout', detail: 'The request did not arrive in time: the connection was closed.' };
    case 'HPE_INVALID_EOF_STATE':
      return { code: 'invalid-request', detail: 'The connection ended before the request was complete (a body shorter than its Content-Length?).' };
    default:
      return { code: 'invalid-request', detail: 'The request is not valid HTTP/1.1.' };
  }
}

/**
 * A `clientError` listener answering with an application/problem+json document, then closing the connection (the
 * parser cannot go on with it). Nothing is written when a response has already begun on the socket.
 */
export function answerClientErrors(options: { problemBase: string; logger?: Logger }) {
  return (error: ParserError, socket: SocketWithResponse): void => {
    const response = socket._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
      socket.destroy();
      return;
    }
    const { code, detail } = classify(error);
    const status = PROBLEMS[code].status;
    // Express may have cut a mount path off req.url; originalUrl is what the client sent.
    const target = response?.req ? (response.req.originalUrl ?? response.req.url) : REQUEST_PATH.exec(error.rawPacket?.toString('latin1') ?? '')?.[1];
    const instance = target?.split('?')[0];
    const requestId = response?.req?.id ?? randomUUID();
    const body = JSON.stringify(problemDocument(options.problemBase, code, detail, instance, { requestId }));
    options.logger?.info(
      { reqId: requestId, err: { code: error.code, message: error.message }, instance: instance && redactRequestPath(instance), res: { statusCode: status } },
      'request refused before routing',
    );
    socket.write(rawProblemAnswer(status, requestId, body));
    socket.destroy();
  };
}

/**
 * A `connect` listener. CONNECT asks for a tunnel, which only a forward proxy gives; without a listener Node closes
 * the connection without a word. Here it gets a 405 problem, as nginx answers it, with an empty Allow (an authority
 * is no resource of ours, so no method is allowed on it), and the connection closes gently.
 */
export function answerConnectRequests(options: { problemBase: string; logger?: Logger }) {
  return (req: http.IncomingMessage, socket: Duplex): void => {
    const requestId = randomUUID();
    const detail = 'CONNECT is not served here: this server is not a proxy.';
    const body = JSON.stringify(problemDocument(options.problemBase, 'method-not-allowed', detail, undefined, { requestId }));
    options.logger?.info({ reqId: requestId, req: { method: req.method, url: req.url }, res: { statusCode: 405 } }, 'CONNECT refused');
    socket.on('error', () => socket.destroy());
    // Node's parser has let go of the socket: whatever the client sends after its request is read here, and dropped.
    socket.resume();
    endLingering(socket, rawProblemAnswer(405, requestId, body, 'Allow: \r\n'));
  };
}

function rawProblemAnswer(status: number, requestId: string, body: string, moreHeaders = ''): string {
  return (
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
    'Content-Type: application/problem+json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Request-Id: ${requestId}\r\n` +
    moreHeaders +
    'Connection: close\r\n\r\n' +
    body
  );
}
