// Answering a request without reading its body, then closing the connection gently. Closed at once with the body
// unread, the kernel answers the client's next bytes with a reset, and a client still sending the body (the gateway,
// nginx without request buffering, any proxy that streams) can lose the answer in it and say 502 instead. So the
// connection is closed the way nginx's lingering close does it: the answer, then a FIN, then whatever the client still
// sends is read and dropped, for at most LINGER_MS, before the socket goes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

const LINGER_MS = 2_000;

/** Marks the answer Connection: close and makes its close a lingering one. */
export function closeUnreadGently(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Connection', 'close');
  const socket = req.socket;
  // Node's server ends a Connection: close answer with socket.destroySoon(): end, then destroy once written, unread
  // bytes and all. HTTP server sockets are half-open capable, so after end() the body keeps arriving and Node's parser
  // drops it (the request is dumped once the answer is done); the client's own end, or the timer, then closes.
  socket.destroySoon = () => endLingering(socket);
}

/**
 * Ends a socket (after `last`, if given) and destroys it once the client has closed its side, or after LINGER_MS.
 * Whoever reads the socket must drop what still arrives: Node's HTTP parser does, a socket without one must be resumed.
 */
export function endLingering(socket: Duplex, last?: string): void {
  socket.end(last);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
