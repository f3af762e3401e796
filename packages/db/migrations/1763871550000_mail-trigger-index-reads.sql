-- Up Migration

-- mail_for_booking_events, one event at a time. It runs in every booking's transaction, and PL/pgSQL keeps each of its
-- statements' plans for the life of the session. As joins over the statement's transition table, those plans were
-- made once, from the statistics of that moment: in a session that first ran it on a new database (bookings and
-- mail_messages empty), PostgreSQL read mail_messages whole for each statement (a join order that cost nothing then),
-- and the bench's bookings fell to a fifth of the ceiling as the table grew. Here every read is one row found by a key
-- (the event's booking by its reference, the booking's messages by its id, the account's settings, the partner), with
-- sequential scans off for the function alone, so each is an index lookup whatever the statistics said. The rules are
-- those of migration 1763871420000.
CREATE OR REPLACE FUNCTION mail_for_booking_events() RETURNS trigger LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  e record;
  b record;
  s record;
  wanted boolean;
  mail_kind text;
  reminder_due timestamptz;
BEGIN
  FOR e IN SELECT n.account_id, n.event_id, n.type, n.payload FROM new_events n
            WHERE n.type IN ('booking.created', 'booking.confirmed', 'booking.updated', 'booking.cancelled') ORDER BY n.id LOOP
    SELECT k.id, k.customer->>'Email' AS email, k.channel, k.partner_id, k.test, t.starts_at
      INTO b
      FROM bookings k JOIN timeslots t ON t.id = k.timeslot_id
     WHERE k.reference = e.payload->>'Reference' AND k.account_id = e.account_id;
    CONTINUE WHEN NOT FOUND;

    -- A cancellation or a move withdraws the reminder not yet sent.
    IF e.type = 'booking.cancelled' OR (e.type = 'booking.updated' AND e.payload->'Changed' ?| ARRAY['ActivityID', 'Date', 'Time']) THEN
      UPDATE mail_messages SET status = 'cancelled', last_error = 'booking ' || CASE WHEN e.type = 'booking.cancelled' THEN 'cancelled' ELSE 'moved' END
       WHERE booking_id = b.id AND account_id = e.account_id AND kind = 'reminder' AND status = 'queued';
    END IF;

    -- A partner's sandbox booking (a test key's) never writes to a customer: its contact is made up, or a real person's
    -- whom the reseller's tests must not reach. Every channel refuses an invalid address at booking time; one that got
    -- in another way (an old row, the admin CLI) is skipped here rather than failing the booking's transaction.
    CONTINUE WHEN b.test OR b.email IS NULL OR length(b.email) > 254 OR b.email !~ '^[^\s@<>()",;:\\]+@[^\s@<>()",;:\\]+$';

    SELECT m.online_enabled, m.pos_enabled, m.reminder_hours INTO s FROM mail_settings m WHERE m.account_id = e.account_id;
    wanted := CASE b.channel
                WHEN 'online' THEN coalesce(s.online_enabled, true)
                WHEN 'pos' THEN coalesce(s.pos_enabled, true)
                ELSE coalesce((SELECT p.customer_emails FROM partners p WHERE p.account_id = e.account_id AND p.id = b.partner_id), false)
              END;
    CONTINUE WHEN NOT wanted;

    mail_kind := CASE
      WHEN (e.type = 'booking.created' AND e.payload->>'Status' = 'confirmed') OR e.type = 'booking.confirmed' THEN 'confirmation'
      WHEN e.type = 'booking.updated' AND e.payload->>'Status' = 'confirmed'
           AND e.payload->'Changed' ?| ARRAY['ActivityID', 'Date', 'Time', 'Participants', 'Customer'] THEN 'change'
      -- A customer hears of a cancellation only when told of the booking: a hold let go was never theirs.
      WHEN e.type = 'booking.cancelled' AND EXISTS (
             SELECT 1 FROM mail_messages c WHERE c.booking_id = b.id AND c.account_id = e.account_id AND c.kind = 'confirmation') THEN 'cancellation'
    END;
    IF mail_kind IS NOT NULL THEN
      INSERT INTO mail_messages (account_id, booking_id, kind, dedupe_key, to_address, data, next_attempt_at)
      VALUES (e.account_id, b.id, mail_kind, 'event:' || e.event_id, b.email, e.payload, now())
      ON CONFLICT (account_id, dedupe_key) DO NOTHING;
    END IF;

    -- One reminder per booking and start: a move gives a new one (the old one is withdrawn above); none when the booking
    -- is made or moved inside the lead time (its confirmation or change e-mail is the reminder then).
    reminder_due := b.starts_at - make_interval(hours => coalesce(s.reminder_hours, 24));
    IF coalesce(s.reminder_hours, 24) > 0 AND reminder_due > now()
       AND ((e.type = 'booking.created' AND e.payload->>'Status' = 'confirmed')
            OR e.type = 'booking.confirmed'
            OR (e.type = 'booking.updated' AND e.payload->>'Status' = 'confirmed' AND e.payload->'Changed' ?| ARRAY['ActivityID', 'Date', 'Time'])) THEN
      INSERT INTO mail_messages (account_id, booking_id, kind, dedupe_key, to_address, data, next_attempt_at)
      VALUES (e.account_id, b.id, 'reminder', 'reminder:' || b.id || ':' || extract(epoch FROM b.starts_at)::bigint, b.email, e.payload, reminder_due)
      ON CONFLICT (account_id, dedupe_key) DO NOTHING;
    END IF;
  END LOOP;
  RETURN NULL;
END;
$$;

-- Down Migration

-- The set-based definition of migration 1763871420000.
CREATE OR REPLACE FUNCTION mail_for_booking_events() RETURNS trigger LANGUAGE plpgsql AS $$
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
