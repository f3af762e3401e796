// The mail worker's configuration, parsed once at boot from the environment.
import { commonEnv, loadConfig, metricsEnv, redisEnv, smtpEnv, type ConfigOf } from '@backbone/config';

export const mailWorkerEnv = {
  type: 'object',
  required: ['DATABASE_URL', 'SMTP_URL'],
  properties: {
    ...commonEnv,
    ...redisEnv,
    ...metricsEnv,
    METRICS_PORT: { ...metricsEnv.METRICS_PORT, default: 9107 },
    ...smtpEnv,
    PUBLIC_BASE_URL: {
      type: 'string',
      default: '',
      pattern: '^(https?://[^/?#\\s]+(/[^?#\\s]*)?)?$',
      description:
        "The service's address as customers reach it (the gateway's, e.g. https://book.example.com): every e-mail of an online or point-of-sale booking links to {PUBLIC_BASE_URL}/book/{Slug}/manage/{token} while the account's booking page is on, and a waitlist offer to {PUBLIC_BASE_URL}/book/{Slug}/claim/{Token}. Empty: no links (set it wherever customers get e-mails). `npm start` sets its own gateway's.",
    },
    SHUTDOWN_TIMEOUT_MS: {
      type: 'integer',
      default: 25000,
      minimum: 0,
      description:
        'On SIGTERM, how long the batch in flight may take to finish; after it the process exits, and the messages of a batch that had not committed are sent again (a resend, never a second metered entry).',
    },
    MAIL_INTERVAL_MS: { type: 'integer', default: 500, minimum: 10, description: 'Pause of the mail worker when it found less than a batch of due messages.' },
    MAIL_BATCH_SIZE: { type: 'integer', default: 50, minimum: 1, maximum: 1000, description: 'Messages claimed, sent and recorded per transaction.' },
    MAIL_CONCURRENT_BATCHES: {
      type: 'integer',
      default: 2,
      minimum: 1,
      maximum: 16,
      description:
        'Batches the worker works on at once (each its own transaction; SKIP LOCKED keeps them apart): one batch records and publishes while the next one sends.',
    },
    MAIL_SMTP_CONNECTIONS: {
      type: 'integer',
      default: 5,
      minimum: 1,
      maximum: 50,
      description: 'SMTP connections the worker keeps open to SMTP_URL and sends on side by side.',
    },
    MAIL_RETRY_BASE_MS: {
      type: 'integer',
      default: 60000,
      minimum: 1,
      description:
        'Wait before the second attempt after a temporary SMTP failure (4xx, or the server unreachable); each further one waits twice as long, at most an hour.',
    },
    MAIL_GIVE_UP_AFTER_MS: {
      type: 'integer',
      default: 86400000,
      minimum: 1,
      description:
        'How long temporary failures are retried, from the first one; after it the message is marked failed. A permanent failure (5xx) is marked failed at once.',
    },
  },
} as const;

export type MailWorkerConfig = ConfigOf<typeof mailWorkerEnv>;

export function loadMailWorkerConfig(env: Record<string, string | undefined> = process.env): MailWorkerConfig {
  return loadConfig(mailWorkerEnv, env);
}
