-- Up Migration

-- Webhook endpoints: where a partner wants its booking events delivered. The secret signs every delivery (Standard
-- Webhooks: `whsec_` + base64) and is kept in clear because signing needs it; it is shown to the partner once.
CREATE TABLE webhook_endpoints (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id      uuid NOT NULL REFERENCES accounts(id),
  partner_id      uuid NOT NULL,
  url             text NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
  event_types     text[] NOT NULL CHECK (cardinality(event_types) > 0),
  secret          text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  -- Start of the current unbroken run of failed attempts (null after a success); five days of it disables the endpoint.
  failing_since   timestamptz,
  disabled_at     timestamptz,
  disabled_reason text,
  FOREIGN KEY (account_id, partner_id) REFERENCES partners (account_id, id)
);
CREATE INDEX webhook_endpoints_partner_idx ON webhook_endpoints (account_id, partner_id);

-- One delivery per (endpoint, event): delivery is at least once, but an event fans out to an endpoint only once.
CREATE TABLE webhook_deliveries (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  endpoint_id      uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  account_id       uuid NOT NULL REFERENCES accounts(id),
  event_id         uuid NOT NULL,
  event_type       text NOT NULL,
  -- The body exactly as delivered: { "type", "timestamp", "data" }.
  payload          jsonb NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempt_count    integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz,
  last_status_code integer,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  delivered_at     timestamptz,
  failed_at        timestamptz,
  -- How many times a partner or operator replayed it: a replay's BullMQ job id is `<id>.r<replay_count>`, fresh each time.
  replay_count     integer NOT NULL DEFAULT 0,
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_failed_idx ON webhook_deliveries (endpoint_id, failed_at) WHERE status = 'failed';

-- Every attempt, kept for the partner to read: status, duration, a short excerpt of the answer.
CREATE TABLE webhook_attempts (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id      uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempted_at     timestamptz NOT NULL DEFAULT now(),
  duration_ms      integer NOT NULL,
  status_code      integer,
  error            text,
  response_excerpt text
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id);

-- Down Migration
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
