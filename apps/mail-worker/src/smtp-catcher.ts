// A local SMTP server that keeps every message it receives: what `npm start` runs when no SMTP_URL is given (its
// messages under .data/mail, one .eml file each), and the real SMTP peer of the tests. It can refuse recipients with a
// chosen reply, to play a server answering 4xx (try later) or 5xx (never).
import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  envelope: { from: string; to: string[] };
  /** Header names in lower case, folded lines joined. */
  headers: Record<string, string>;
  /** The message as received. */
  raw: string;
  /** The raw message with quoted-printable undone, for reading links and times. */
  decoded: string;
}

export interface SmtpCatcherOptions {
  port?: number;
  host?: string;
  /** Keep each message as a .eml file here too. */
  directory?: string;
  /** A reply for a recipient ({ code: 451, message }), or null to take it. */
  refuse?: (recipient: string) => { code: number; message: string } | null;
  /** Runs after a message is kept and before the server says it took it (a test kills the sender there). */
  beforeReply?: (mail: CaughtMail) => Promise<void>;
}

export interface SmtpCatcher {
  port: number;
  url: string;
  messages: CaughtMail[];
  close(): Promise<void>;
}

export function parseHeaders(raw: string): Record<string, string> {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

const decodeQuotedPrintable = (raw: string) =>
  Buffer.from(
    raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

export async function startSmtpCatcher(options: SmtpCatcherOptions = {}): Promise<SmtpCatcher> {
  const messages: CaughtMail[] = [];
  if (options.directory) await mkdir(options.directory, { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = options.refuse?.(address.address);
      if (!refusal) return callback();
      callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail: CaughtMail = {
          envelope: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
          },
          headers: parseHeaders(raw),
          raw,
          decoded: decodeQuotedPrintable(raw),
        };
        messages.push(mail);
        const saved = options.directory ? writeFile(path.join(options.directory, `${Date.now()}-${messages.length}.eml`), raw) : Promise.resolve();
        saved
          .then(() => options.beforeReply?.(mail))
          .then(
            () => callback(),
            (error: Error) => callback(error),
          );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://${options.host ?? '127.0.0.1'}:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
