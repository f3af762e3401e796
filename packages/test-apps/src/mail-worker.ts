// The mail worker's delivery as the tests run it: one pass in this process that sends every due message to a real SMTP
// server (the local catcher), so a test reads a link from the message received, as its reader would.
import type { Pool } from '@backbone/db';
import { createLogger } from '@backbone/http';
import { createSmtpSender, deliverDueMail } from '@backbone/mail-worker';
import type { EventPublisher } from '@backbone/publisher';

export { startSmtpCatcher, type CaughtMail, type SmtpCatcher } from '@backbone/mail-worker/smtp-catcher';

// The platform events of the messages sent are the mail worker's own tests' business; here nothing listens.
const noEvents: EventPublisher = { publish: () => Promise.resolve(), publishBulk: () => Promise.resolve(), close: () => Promise.resolve() };

/** Sends the due messages of every account through `smtpUrl`, with links under `publicBaseUrl`; answers how many were claimed. */
export async function deliverMailOnce(pool: Pool, smtpUrl: string, publicBaseUrl: string): Promise<number> {
  const sender = createSmtpSender(smtpUrl, 1);
  try {
    return await deliverDueMail({
      pool,
      sender,
      publisher: noEvents,
      from: 'console@backbone.test',
      publicBaseUrl,
      batchSize: 100,
      retryBaseMs: 1_000,
      giveUpAfterMs: 60_000,
      logger: createLogger({ level: 'silent', name: 'mail-worker-test' }),
    });
  } finally {
    sender.close();
  }
}

/** The link to the console in a message received (an invitation or a password reset), with its token. */
export function consoleLinkIn(decoded: string): { link: string; token: string } | null {
  const match = decoded.match(/(https?:\/\/[^\s"<>]+\/console\/(?:invitation|password-reset)#([A-Za-z0-9_-]{43}))/);
  return match ? { link: match[1]!, token: match[2]! } : null;
}
