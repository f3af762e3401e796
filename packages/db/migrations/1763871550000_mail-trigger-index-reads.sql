-- Up Migration

-- mail_for_booking_events runs in every booking's transaction, and PL/pgSQL keeps each of its statements' plans for
-- the life of the session. A session that first ran it while bookings or mail_messages were empty (statistics say so
-- on a new database) kept sequential scans of both, and each later booking on that connection read the whole table:
-- the bench's partner bookings fell from about 1,700/s to 300/s as the table grew. Every row the trigger reads is
-- found by a key (a booking's reference, a booking's messages, an account's settings, a partner), so it never wants a
-- sequential scan; with them off for the function alone its plans use the indexes whatever the statistics were.
ALTER FUNCTION mail_for_booking_events() SET enable_seqscan = off;

-- Down Migration

ALTER FUNCTION mail_for_booking_events() RESET enable_seqscan;
