// Parses process.env once at boot against a JSON Schema, applies defaults and freezes the result.
// Nothing below an app's main module reads process.env; it receives the config object instead.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

export interface EnvSchema {
  type: 'object';
  properties: Record<
    string,
    {
      type: 'string' | 'integer' | 'number' | 'boolean';
      default?: unknown;
      description?: string;
      minimum?: number;
      maximum?: number;
      enum?: readonly unknown[];
      pattern?: string;
    }
  >;
  required?: readonly string[];
}

export type ConfigOf<S extends EnvSchema> = {
  readonly [K in keyof S['properties']]: S['properties'][K]['type'] extends 'string' ? string : S['properties'][K]['type'] extends 'boolean' ? boolean : number;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true });
addFormats.default(ajv);

/** Reads the variables named in `schema` from `env`, coerces and checks them; throws a ConfigError naming every bad one. */
export function loadConfig<S extends EnvSchema>(schema: S, env: Record<string, string | undefined> = process.env): ConfigOf<S> {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const validate = ajv.compile(schema);
  if (!validate(raw)) {
    const problems = (validate.errors ?? []).map(
      (e) => `${e.instancePath.slice(1) || (e.params as { missingProperty?: string }).missingProperty}: ${e.message}`,
    );
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return Object.freeze(raw) as ConfigOf<S>;
}

/** Variables every service shares; each app spreads these into its own schema. */
export const commonEnv = {
  DATABASE_URL: { type: 'string', description: 'PostgreSQL connection string.' },
  DATABASE_SCHEMA: { type: 'string', default: 'public', description: 'PostgreSQL schema holding the tables (tests give each file its own).' },
  DATABASE_POOL_SIZE: { type: 'integer', default: 20, minimum: 1, maximum: 500, description: 'Maximum PostgreSQL connections per process.' },
  LOG_LEVEL: { type: 'string', default: 'info', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], description: 'pino log level.' },
} as const;

export const redisEnv = {
  REDIS_URL: {
    type: 'string',
    default: 'redis://127.0.0.1:6379',
    description: 'Redis: the BullMQ queues, the API key revocations every API listens to, and the per-key rate limits. Run it with noeviction and AOF.',
  },
  QUEUE_PREFIX: {
    type: 'string',
    default: 'bull',
    description:
      "BullMQ key prefix (lets several environments share one Redis). Bound to one database: the first process to use it records its database in Redis (key `<prefix>:backbone:database`: PostgreSQL's system identifier, the database and the schema), and a process of any other database refuses to start on it, naming both. Only when a database took another's place with its queued jobs (restored to a new server, upgraded) delete that key. `npm start` derives one from its database unless this is set.",
  },
} as const;

/** How a BullMQ worker process holds its jobs and lets them go (the metering and webhook workers alike). */
export const queueWorkerEnv = {
  WORKER_LOCK_DURATION_MS: {
    type: 'integer',
    default: 30000,
    minimum: 1000,
    description: 'How long a job stays locked to a worker without renewal: a job of a killed worker is redelivered after it.',
  },
  WORKER_STALLED_INTERVAL_MS: { type: 'integer', default: 30000, minimum: 500, description: 'How often a worker looks for jobs whose worker died.' },
  WORKER_MAX_STALLED_COUNT: {
    type: 'integer',
    default: 3,
    minimum: 0,
    description: 'Times a job may lose its worker (crash, Redis restart) before it is moved to the failed set.',
  },
  SHUTDOWN_TIMEOUT_MS: {
    type: 'integer',
    default: 25000,
    minimum: 0,
    description:
      "On SIGTERM, how long active jobs may take to finish (a webhook attempt takes at most WEBHOOK_ATTEMPT_TIMEOUT_MS); after it the process exits and unfinished jobs are redelivered. Keep it below the orchestrator's grace period (compose: 30 s).",
  },
} as const;

export const httpEnv = {
  PORT: { type: 'integer', default: 3000, minimum: 0, maximum: 65535, description: 'HTTP port.' },
  HOST: { type: 'string', default: '0.0.0.0', description: 'HTTP bind address.' },
  PROBLEM_BASE: { type: 'string', default: 'https://problems.activity-backbone.dev', description: 'Base URI of the RFC 9457 problem types.' },
  BODY_LIMIT: { type: 'string', default: '1mb', description: 'Largest JSON body accepted (413 above it).' },
  AUTH_CACHE_TTL_MS: {
    type: 'integer',
    default: 5000,
    minimum: 0,
    description:
      'How long a verified API key is trusted without a database lookup. Revocations reach running servers at once over Redis; this bounds how long a revoked key works only while Redis is unreachable.',
  },
  SHUTDOWN_TIMEOUT_MS: { type: 'integer', default: 10000, minimum: 0, description: 'Grace period for in-flight requests on SIGTERM.' },
  HEADERS_TIMEOUT_MS: {
    type: 'integer',
    default: 10000,
    minimum: 1,
    description: "Time for a request's headers to arrive (also for a new connection's first request); 408 and closed after it. At most REQUEST_TIMEOUT_MS.",
  },
  REQUEST_TIMEOUT_MS: {
    type: 'integer',
    default: 30000,
    minimum: 1,
    description: 'Time for a whole request, body included, to arrive; 408 and closed after it.',
  },
  CONNECTIONS_CHECK_INTERVAL_MS: {
    type: 'integer',
    default: 1000,
    minimum: 10,
    description:
      "How often HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS are checked (Node's connectionsCheckingInterval, 30 s by default): they fire up to this much late.",
  },
} as const;

/** Per-key rate limits of the APIs (packages/http rate-limits.ts): a quota of BURST per ceil(BURST / PER_SECOND) s. */
export const rateLimitEnv = {
  RATE_LIMIT_ENABLED: {
    type: 'boolean',
    default: true,
    description: 'Limit the requests of each API key (not console sessions) on Redis; false serves every request unlimited, without RateLimit fields.',
  },
  RATE_LIMIT_OTA_PER_SECOND: { type: 'integer', default: 20, minimum: 1, description: 'Requests per second of an ota (partner) key, over time.' },
  RATE_LIMIT_OTA_BURST: { type: 'integer', default: 40, minimum: 1, description: 'Requests an ota key may make at once; at least RATE_LIMIT_OTA_PER_SECOND.' },
  RATE_LIMIT_USAGE_PER_SECOND: {
    type: 'integer',
    default: 200,
    minimum: 1,
    description: 'Requests per second of a usage:write, usage:read or platform:events key (usage ingest sends more than a partner).',
  },
  RATE_LIMIT_USAGE_BURST: {
    type: 'integer',
    default: 400,
    minimum: 1,
    description: 'Requests a usage key may make at once; at least RATE_LIMIT_USAGE_PER_SECOND.',
  },
  RATE_LIMIT_ADMIN_PER_SECOND: { type: 'integer', default: 10, minimum: 1, description: 'Requests per second of an admin key (operator API scripts).' },
  RATE_LIMIT_ADMIN_BURST: {
    type: 'integer',
    default: 20,
    minimum: 1,
    description: 'Requests an admin key may make at once; at least RATE_LIMIT_ADMIN_PER_SECOND.',
  },
  RATE_LIMIT_REDIS_TIMEOUT_MS: {
    type: 'integer',
    default: 100,
    minimum: 1,
    description: 'A rate-limit check Redis has not answered by then lets the request through (counted and logged).',
  },
} as const;

export interface RateLimitSettings {
  enabled: boolean;
  redisTimeoutMs: number;
  /** Budgets per kind of key; a key with several scopes gets the largest. */
  defaults: Record<'ota' | 'usage' | 'admin', { perSecond: number; burst: number }>;
}

export function rateLimitSettings(config: ConfigOf<{ type: 'object'; properties: typeof rateLimitEnv }>): RateLimitSettings {
  return {
    enabled: config.RATE_LIMIT_ENABLED,
    redisTimeoutMs: config.RATE_LIMIT_REDIS_TIMEOUT_MS,
    defaults: {
      ota: { perSecond: config.RATE_LIMIT_OTA_PER_SECOND, burst: config.RATE_LIMIT_OTA_BURST },
      usage: { perSecond: config.RATE_LIMIT_USAGE_PER_SECOND, burst: config.RATE_LIMIT_USAGE_BURST },
      admin: { perSecond: config.RATE_LIMIT_ADMIN_PER_SECOND, burst: config.RATE_LIMIT_ADMIN_BURST },
    },
  };
}

/**
 * The metrics server of each process (GET /metrics on a port of its own, never behind the public gateway). Each app
 * overrides METRICS_PORT's default with its own (partner API 9101, usage API 9102, operator API 9103, metering worker
 * 9104, webhook worker 9105, booking worker 9106), so processes on one host do not collide.
 */
export const metricsEnv = {
  METRICS_ENABLED: {
    type: 'boolean',
    default: true,
    description: 'Serve /metrics and record the HTTP request metrics (false: neither; the domain counters cost nothing worth switching off).',
  },
  METRICS_PORT: {
    type: 'integer',
    default: 9101,
    minimum: 0,
    maximum: 65535,
    description: "Port of the metrics server, apart from the API's and never behind the gateway (0: any free port, logged as `metrics listening`).",
  },
  METRICS_HOST: { type: 'string', default: '0.0.0.0', description: 'Bind address of the metrics server: keep it reachable by Prometheus only.' },
} as const;

/**
 * Where uploaded files' bytes are kept (packages/file-store): the partner API (partners' and the booking page's
 * uploads) and the operator API (the desk's uploads, the download) write and read them, the worker that sweeps
 * unreferenced files deletes them; all three must name the same store.
 */
export const fileStoreEnv = {
  FILE_STORE: {
    type: 'string',
    default: '.data/files',
    description:
      "Uploaded files: a directory (relative to the working directory; npm start's default is .data/files, nothing to set up), or s3://<bucket>/<prefix> for an S3-compatible bucket (with the FILE_STORE_S3_* settings). Every API and the worker must name the same store.",
  },
  FILE_STORE_S3_ENDPOINT: {
    type: 'string',
    default: '',
    description: 'URL of an S3-compatible service (MinIO, Ceph, R2, ...); empty for AWS S3 itself.',
  },
  FILE_STORE_S3_REGION: { type: 'string', default: 'us-east-1', description: "The bucket's region." },
  FILE_STORE_S3_FORCE_PATH_STYLE: {
    type: 'boolean',
    default: false,
    description: 'Path-style bucket URLs (http://host/bucket/key), as most S3-compatible services want.',
  },
  FILE_STORE_S3_ACCESS_KEY_ID: {
    type: 'string',
    default: '',
    description: "Static credentials for the bucket; empty: the AWS SDK's own chain (instance role, web identity, AWS_* variables).",
  },
  FILE_STORE_S3_SECRET_ACCESS_KEY: { type: 'string', default: '', description: 'The secret of FILE_STORE_S3_ACCESS_KEY_ID.' },
} as const;

/** The account's file quota, which every API that takes uploads (partner, booking page, the desk) must count alike. */
export const fileQuotaEnv = {
  FILE_QUOTA_BYTES: {
    type: 'integer',
    default: 5_000_000_000,
    minimum: 1,
    description:
      "Bytes one account's uploaded files may take together (pending uploads included); an upload beyond it is refused with 413 /file-quota-exceeded. Give the partner and operator APIs the same value.",
  },
} as const;

/** Where the platform's own e-mails go (the mail worker sends them; docs/emails.md). */
export const smtpEnv = {
  SMTP_URL: {
    type: 'string',
    description:
      'The SMTP server the mail worker sends through: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465. `npm start` without it runs a local catcher (every message kept under .data/mail) and points the worker at it.',
  },
  MAIL_FROM: {
    type: 'string',
    default: 'bookings@localhost',
    pattern: '^[^\\s@<>]+@[^\\s@<>]+$',
    description: "The envelope sender and From address of every customer e-mail; the account's sender name is shown with it and its reply-to address answers.",
  },
} as const;
