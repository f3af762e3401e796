-- Up Migration

-- Customer e-mails (issue 38). Each account's sender, channels, reminder lead and templates live in mail_settings (no
-- row: the defaults). A partner's customers get e-mails only when the operator switches it on for that partner: most
-- resellers write to their own customers.
CREATE TABLE mail_settings (
  account_id          uuid PRIMARY KEY REFERENCES accounts(id),
  sender_name         text CHECK (length(sender_name) BETWEEN 1 AND 200 AND sender_name !~ '[\r\n]'),
  reply_to            text CHECK (length(reply_to) BETWEEN 3 AND 254 AND reply_to !~ '[\r\n]'),
  online_enabled      boolean NOT NULL DEFAULT true,
  pos_enabled         boolean NOT NULL DEFAULT true,
  reminder_hours      integer NOT NULL DEFAULT 24 CHECK (reminder_hours BETWEEN 0 AND 336),
  locale              text NOT NULL DEFAULT 'en-GB' CHECK (length(locale) BETWEEN 2 AND 35),
  -- { "<kind>": { "subject", "text", "html" } }: the kinds the owner has rewritten; the others use the built-in ones.
  templates           jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(templates) = 'object'),
  updated_at          timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE partners ADD COLUMN customer_emails boolean NOT NULL DEFAULT false;

-- The mail outbox. A row is written in the transaction of the change that causes it (see mail_for_booking_events
-- below), so a change that rolled back sends nothing; dedupe_key names the cause (an outbox event, or a booking's
-- reminder for one start), so one change never gives two messages. The worker renders subject, text and html when it
-- first takes the row, from the booking, the event's snapshot (data) and the account's templates at that moment.
CREATE TABLE mail_messages (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id          uuid NOT NULL REFERENCES accounts(id),
  -- A booking is deleted only when it is a sandbox one (the booking worker's sweep); its messages go with it.
  booking_id          bigint REFERENCES bookings(id) ON DELETE CASCADE,
  kind                text NOT NULL CHECK (kind IN ('confirmation', 'change', 'cancellation', 'reminder', 'waitlist-offer', 'test')),
  dedupe_key          text NOT NULL,
  to_address          text NOT NULL CHECK (length(to_address) BETWEEN 3 AND 254 AND to_address !~ '[\r\n]'),
  -- The cause's snapshot: the outbox event's payload (the booking's date, time and party at that change), or a test's content.
  data                jsonb NOT NULL DEFAULT '{}'::jsonb,
  subject             text,
  text_body           text,
  html_body           text,
  -- cancelled: a reminder withdrawn because its booking was cancelled or moved before it was due.
  status              text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed', 'cancelled')),
  attempts            integer NOT NULL DEFAULT 0,
  next_attempt_at     timestamptz NOT NULL DEFAULT now(),
  first_failure_at    timestamptz,
  last_error          text,
  sent_at             timestamptz,
  provider_message_id text,
  -- The workflow-email.sent platform event of this message: its EventID is fixed at insert, so publishing it again
  -- after a crash never meters twice; event_published_at is stamped once the queue took it.
  event_id            uuid NOT NULL DEFAULT gen_random_uuid(),
  event_published_at  timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, dedupe_key)
);
CREATE INDEX mail_messages_due_idx ON mail_messages (next_attempt_at) WHERE status = 'queued';
CREATE INDEX mail_messages_unpublished_idx ON mail_messages (sent_at) WHERE status = 'sent' AND event_published_at IS NULL;
CREATE INDEX mail_messages_account_idx ON mail_messages (account_id, id DESC);
CREATE INDEX mail_messages_booking_idx ON mail_messages (booking_id) WHERE booking_id IS NOT NULL;

-- Writes the mail rows of a statement's booking events, in that statement's transaction. A trigger rather than a call
-- beside each INSERT INTO outbox_events: the events are written by six statements (one of them the reservation
-- batches' multi-row insert), and every one of them must give its e-mail or none, whoever wrote it. The statement-level
-- form joins all the statement's events at once, so a batch of bookings costs one insert here, not one per booking.
-- Each event finds its booking by its reference through a LATERAL ... LIMIT 1, which PostgreSQL cannot turn into a join:
-- it knows nothing of a transition table's size, and as a plain join it read the whole bookings table for every
-- statement (the bench's bookings fell from 1,800/s to 80/s at 40,000 rows).
CREATE FUNCTION mail_for_booking_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A cancellation or a move withdraws the reminder not yet sent.
  UPDATE mail_messages m SET status = 'cancelled', last_error = 'booking ' || CASE WHEN e.type = 'booking.cancelled' THEN 'cancelled' ELSE 'moved' END
    FROM new_events e
    CROSS JOIN LATERAL (SELECT b.id FROM bookings b
                         WHERE b.reference = e.payload->>'Reference' AND b.account_id = e.account_id LIMIT 1) b
   WHERE m.booking_id = b.id AND m.account_id = e.account_id AND m.kind = 'reminder' AND m.status = 'queued'
     AND (e.type = 'booking.cancelled'
          OR (e.type = 'booking.updated' AND e.payload->'Changed' ?| ARRAY['ActivityID', 'Date', 'Time']));

  WITH mailed AS (
    SELECT e.account_id, e.event_id, e.type, e.payload, b.id AS booking_id, b.customer->>'Email' AS to_address, t.starts_at,
           coalesce(s.reminder_hours, 24) AS reminder_hours
      FROM new_events e
      CROSS JOIN LATERAL (SELECT b.id, b.account_id, b.customer, b.timeslot_id, b.channel, b.partner_id, b.test FROM bookings b
                           WHERE b.reference = e.payload->>'Reference' AND b.account_id = e.account_id LIMIT 1) b
      JOIN timeslots t ON t.id = b.timeslot_id
      LEFT JOIN mail_settings s ON s.account_id = e.account_id
      LEFT JOIN partners p ON p.account_id = b.account_id AND p.id = b.partner_id
     WHERE e.type IN ('booking.created', 'booking.confirmed', 'booking.updated', 'booking.cancelled')
       -- A partner's sandbox booking (a test key's) never writes to a customer: its contact is made up, or a real
       -- person's whom the reseller's tests must not reach.
       AND NOT b.test
       -- Every channel refuses an invalid address at booking time; one that got in another way (an old row, the admin
       -- CLI) is skipped here rather than failing the booking's transaction.
       AND b.customer->>'Email' ~ '^[^\s@<>()",;:\\]+@[^\s@<>()",;:\\]+$' AND length(b.customer->>'Email') <= 254
       AND CASE b.channel WHEN 'online' THEN coalesce(s.online_enabled, true)
                          WHEN 'pos' THEN coalesce(s.pos_enabled, true)
                          ELSE coalesce(p.customer_emails, false) END
  ), messages AS (
    SELECT account_id, booking_id, to_address, payload,
           CASE type WHEN 'booking.cancelled' THEN 'cancellation' WHEN 'booking.updated' THEN 'change' ELSE 'confirmation' END AS kind,
           'event:' || event_id AS dedupe_key, now() AS due
      FROM mailed
     WHERE (type = 'booking.created' AND payload->>'Status' = 'confirmed')
        OR type = 'booking.confirmed'
        OR (type = 'booking.updated' AND payload->>'Status' = 'confirmed'
            AND payload->'Changed' ?| ARRAY['ActivityID', 'Date', 'Time', 'Participants', 'Customer'])
        -- A customer hears of a cancellation only when told of the booking: a hold let go was never theirs.
        OR (type = 'booking.cancelled' AND EXISTS (
              SELECT 1 FROM mail_messages c WHERE c.account_id = mailed.account_id AND c.booking_id = mailed.booking_id AND c.kind = 'confirmation'))
    UNION ALL
    -- One reminder per booking and start: a move gives a new one (the old one is withdrawn above); none when the
    -- booking is made or moved inside the lead time (its confirmation or change e-mail is the reminder then).
    SELECT account_id, booking_id, to_address, payload, 'reminder',
           'reminder:' || booking_id || ':' || extract(epoch FROM starts_at)::bigint, starts_at - make_interval(hours => reminder_hours)
      FROM mailed
     WHERE reminder_hours > 0 AND starts_at - make_interval(hours => reminder_hours) > now()
       AND ((type = 'booking.created' AND payload->>'Status' = 'confirmed')
            OR type = 'booking.confirmed'
            OR (type = 'booking.updated' AND payload->>'Status' = 'confirmed' AND payload->'Changed' ?| ARRAY['ActivityID', 'Date', 'Time']))
  )
  INSERT INTO mail_messages (account_id, booking_id, kind, dedupe_key, to_address, data, next_attempt_at)
  SELECT account_id, booking_id, kind, dedupe_key, to_address, payload, due FROM messages
  ON CONFLICT (account_id, dedupe_key) DO NOTHING;
  RETURN NULL;
END;
$$;

CREATE TRIGGER outbox_events_mail AFTER INSERT ON outbox_events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION mail_for_booking_events();

-- Down Migration

DROP TRIGGER outbox_events_mail ON outbox_events;
DROP FUNCTION mail_for_booking_events();
DROP TABLE mail_messages;
ALTER TABLE partners DROP COLUMN customer_emails;
DROP TABLE mail_settings;
