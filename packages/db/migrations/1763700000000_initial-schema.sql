-- Up Migration

-- Every table carries account_id: repositories filter on it in every query, so one key never reaches another account.
CREATE TABLE accounts (
  id          uuid PRIMARY KEY,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  time_zone   text NOT NULL DEFAULT 'UTC',
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id          uuid PRIMARY KEY,
  account_id  uuid NOT NULL REFERENCES accounts(id),
  name        text NOT NULL,
  -- The first characters of the secret, kept in clear so an operator can tell keys apart; the secret itself is only hashed.
  prefix      text NOT NULL,
  secret_hash bytea NOT NULL UNIQUE,
  scopes      text[] NOT NULL CHECK (scopes <@ ARRAY['ota', 'usage:write', 'usage:read', 'platform:events', 'admin']::text[]),
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz
);
CREATE INDEX api_keys_account_idx ON api_keys (account_id);

CREATE TABLE activities (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  activity_id       uuid NOT NULL UNIQUE,
  account_id        uuid NOT NULL REFERENCES accounts(id),
  name              text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  description       text NOT NULL DEFAULT '',
  duration_minutes  integer NOT NULL CHECK (duration_minutes > 0),
  time_zone         text NOT NULL,
  price_minor       bigint NOT NULL CHECK (price_minor >= 0),
  currency          char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  max_participants  integer NOT NULL DEFAULT 20 CHECK (max_participants > 0),
  active            boolean NOT NULL DEFAULT true,
  in_shopfront      boolean NOT NULL DEFAULT true,
  created_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, id)
);
CREATE INDEX activities_account_name_idx ON activities (account_id, lower(name));

CREATE TABLE timeslots (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id   uuid NOT NULL,
  activity_id  bigint NOT NULL,
  -- local_date/local_time are the slot's wall-clock start in the activity's time zone, fixed at creation,
  -- so partners' (Date, Time) pairs hit one unique index without time-zone arithmetic per request.
  local_date   date NOT NULL,
  local_time   time(0) NOT NULL,
  starts_at    timestamptz NOT NULL,
  ends_at      timestamptz NOT NULL,
  capacity     integer NOT NULL CHECK (capacity >= 0),
  booked       integer NOT NULL DEFAULT 0,
  status       text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT timeslots_booked_within_capacity CHECK (booked BETWEEN 0 AND capacity),
  CHECK (ends_at > starts_at),
  FOREIGN KEY (account_id, activity_id) REFERENCES activities (account_id, id),
  UNIQUE (account_id, activity_id, local_date, local_time)
);

CREATE TABLE waiver_questions (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id      uuid NOT NULL,
  activity_id     bigint NOT NULL,
  position        integer NOT NULL,
  question        text NOT NULL CHECK (length(question) BETWEEN 1 AND 2000),
  type            text NOT NULL CHECK (type IN ('text', 'textarea', 'select', 'multiselect', 'checkbox', 'date', 'email', 'phone', 'number', 'file', 'signature')),
  required        boolean NOT NULL DEFAULT false,
  options         jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(options) = 'array'),
  per_participant boolean NOT NULL DEFAULT false,
  FOREIGN KEY (account_id, activity_id) REFERENCES activities (account_id, id)
);
CREATE INDEX waiver_questions_activity_idx ON waiver_questions (account_id, activity_id, position);

CREATE TABLE bookings (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id          uuid NOT NULL,
  reference           text NOT NULL UNIQUE,
  activity_id         bigint NOT NULL,
  timeslot_id         bigint NOT NULL REFERENCES timeslots(id),
  channel             text NOT NULL CHECK (channel IN ('ota', 'online', 'pos')),
  status              text NOT NULL DEFAULT 'confirmed' CHECK (status IN ('confirmed', 'cancelled')),
  participants        integer NOT NULL CHECK (participants > 0),
  customer            jsonb NOT NULL,
  payment_reference   text,
  answers             jsonb NOT NULL DEFAULT '[]'::jsonb,
  api_key_id          uuid,
  created_at          timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (account_id, activity_id) REFERENCES activities (account_id, id)
);
CREATE INDEX bookings_account_created_idx ON bookings (account_id, created_at DESC);
CREATE INDEX bookings_timeslot_idx ON bookings (timeslot_id);

-- One row per (account, operation, Idempotency-Key): 'running' while the first request works, then its stored answer.
CREATE TABLE idempotency_keys (
  account_id      uuid NOT NULL,
  operation       text NOT NULL,
  key             text NOT NULL,
  request_hash    text NOT NULL,
  state           text NOT NULL CHECK (state IN ('running', 'done')),
  response_status integer,
  response_body   text,
  locked_at       timestamptz NOT NULL DEFAULT now(),
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, operation, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

-- Events that must leave after their transaction commits; the relay moves them to BullMQ and then stamps sent_at.
CREATE TABLE outbox_events (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id  uuid NOT NULL,
  event_id    uuid NOT NULL UNIQUE,
  type        text NOT NULL,
  payload     jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  sent_at     timestamptz
);
CREATE INDEX outbox_events_unsent_idx ON outbox_events (id) WHERE sent_at IS NULL;

CREATE TABLE usage_entries (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id   uuid NOT NULL,
  meter        text NOT NULL CHECK (length(meter) BETWEEN 1 AND 255),
  usage        numeric NOT NULL CHECK (usage > 0),
  extra_info   text,
  occurred_at  timestamptz NOT NULL,
  -- 'event:<EventID>' for built-in meters, 'key:<Idempotency-Key>' for client retries: the real guarantee against double counting.
  dedupe_key   text,
  request_hash text,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX usage_entries_dedupe_idx ON usage_entries (account_id, dedupe_key) WHERE dedupe_key IS NOT NULL;
CREATE INDEX usage_entries_account_time_idx ON usage_entries (account_id, occurred_at) INCLUDE (meter, usage);

-- Rollups kept in the same transaction as the entries: UTC hours and UTC days. A summary reads whole days and hours
-- from them and only the sub-hour edges of a period (zones with :30/:45 offsets) from usage_entries.
CREATE TABLE usage_rollups_hourly (
  account_id  uuid NOT NULL,
  bucket      timestamptz NOT NULL,
  meter       text NOT NULL,
  total_usage numeric NOT NULL,
  event_count bigint NOT NULL,
  PRIMARY KEY (account_id, bucket, meter)
);

CREATE TABLE usage_rollups_daily (
  account_id  uuid NOT NULL,
  bucket      date NOT NULL,
  meter       text NOT NULL,
  total_usage numeric NOT NULL,
  event_count bigint NOT NULL,
  PRIMARY KEY (account_id, bucket, meter)
);

-- Down Migration
DROP TABLE usage_rollups_daily;
DROP TABLE usage_rollups_hourly;
DROP TABLE usage_entries;
DROP TABLE outbox_events;
DROP TABLE idempotency_keys;
DROP TABLE bookings;
DROP TABLE waiver_questions;
DROP TABLE timeslots;
DROP TABLE activities;
DROP TABLE api_keys;
DROP TABLE accounts;
