// One delivery attempt over HTTP: a signed POST, a total deadline, no redirects followed, and a bounded read of the
// answer. The destination is vetted before the request (an address literal never reaches a DNS lookup) and again by
// the lookup the socket connects with, so a host that starts resolving to a private address later is not called.
import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { DestinationRefusedError, guardedLookup, vetDestination, type DestinationPolicy } from '@backbone/webhooks';

export const USER_AGENT = 'activity-backbone-webhooks/1 (+https://standardwebhooks.com)';
/** The answer is read up to this many bytes, then the connection is dropped: a receiver cannot make us read more. */
const MAX_ANSWER_BYTES = 4096;
const EXCERPT_CHARS = 500;

export interface WebhookMessage {
  url: string;
  secret: string;
  /** The `webhook-id`: the event's id, the same at every attempt and on every endpoint, for receivers to drop repeats. */
  messageId: string;
  body: string;
}

export interface AttemptResult {
  succeeded: boolean;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  durationMs: number;
  /**
   * Not sent: why the destination guard refused the URL or the address its host resolved to. Not a passing failure:
   * the same URL is refused until it or the allowed hosts change (a host that does not resolve is not a refusal here).
   */
  refused?: string;
}

export interface WebhookSender {
  send(message: WebhookMessage): Promise<AttemptResult>;
  close(): void;
}

export function createWebhookSender(options: { policy: DestinationPolicy; timeoutMs: number }): WebhookSender {
  const lookup = guardedLookup(options.policy);
  // Kept-alive sockets spare each attempt a handshake; a reused socket was connected through the guarded lookup.
  const agents = { 'http:': new http.Agent({ keepAlive: true, lookup }), 'https:': new https.Agent({ keepAlive: true, lookup }) };

  const send = async (message: WebhookMessage): Promise<AttemptResult> => {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = await vetDestination(message.url, options.policy);
    } catch (error) {
      return { succeeded: false, statusCode: null, error: (error as Error).message, responseExcerpt: null, durationMs: elapsed(), ...refusal(error) };
    }
    const timestamp = new Date();
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': message.messageId,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': new Webhook(message.secret).sign(message.messageId, timestamp, message.body),
    };
    const answer = await post(url, headers, message.body, url.protocol === 'https:' ? agents['https:'] : agents['http:'], lookup, options.timeoutMs);
    const durationMs = elapsed();
    if ('error' in answer) {
      return {
        succeeded: false,
        statusCode: answer.statusCode ?? null,
        error: answer.error,
        responseExcerpt: answer.excerpt ?? null,
        durationMs,
        ...(answer.refused ? { refused: answer.refused } : {}),
      };
    }
    const { statusCode, excerpt } = answer;
    if (statusCode >= 200 && statusCode < 300) return { succeeded: true, statusCode, error: null, responseExcerpt: excerpt, durationMs };
    const error = statusCode >= 300 && statusCode < 400 ? `redirect (${statusCode}) not followed` : `answered ${statusCode}`;
    return { succeeded: false, statusCode, error, responseExcerpt: excerpt, durationMs };
  };

  return {
    send,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

type Answer = { statusCode: number; excerpt: string } | { error: string; statusCode?: number; excerpt?: string; refused?: string };

function refusal(error: unknown): { refused?: string } {
  return error instanceof DestinationRefusedError && !error.unresolved ? { refused: error.reason } : {};
}

function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  agent: http.Agent,
  lookup: http.RequestOptions['lookup'],
  timeoutMs: number,
): Promise<Answer> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(answer);
    };
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent, lookup });
    const deadline = setTimeout(() => {
      finish({ error: `no complete answer within ${timeoutMs} ms` });
      request.destroy();
    }, timeoutMs);
    request.on('error', (error) => finish({ error: describe(error), ...refusal(error) }));
    request.on('response', (response) => {
      const statusCode = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let bytes = 0;
      const done = () => {
        const excerpt = Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8').slice(0, EXCERPT_CHARS);
        finish({ statusCode, excerpt });
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        bytes += chunk.length;
        if (bytes >= MAX_ANSWER_BYTES) {
          done();
          response.destroy();
        }
      });
      response.on('end', done);
      // A receiver that sent its status but broke off the body still answered; its status decides.
      response.on('error', done);
      response.on('close', done);
    });
    request.end(body);
  });
}

function describe(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (error instanceof DestinationRefusedError) return error.message;
  return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
}
