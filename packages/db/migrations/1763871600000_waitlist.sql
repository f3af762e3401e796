-- Up Migration

-- The waitlist of full timeslots (issue 38). A customer (the booking page) or a caller (staff in the console) waits for
-- a party's places; when places free up, the earliest entries that fit are offered them: the places are held for the
-- entry as an ordinary hold (booking_id, same conditional capacity update as every booking), an offer e-mail with a
-- claim link goes out, and an offer not claimed by offer_expires_at passes on to the next entry.
--   waiting  -> offered (places held) -> claimed (the hold confirmed) | expired (the hold lapsed or was let go)
--   waiting | offered -> removed (staff, or the customer); waiting -> expired (the timeslot started)
-- The position is the order of created_at (then id) among the waiting entries of the timeslot.
CREATE TABLE waitlist_entries (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id        uuid NOT NULL REFERENCES accounts(id),
  timeslot_id       bigint NOT NULL REFERENCES timeslots(id) ON DELETE CASCADE,
  participants      integer NOT NULL CHECK (participants BETWEEN 1 AND 10000),
  first_name        text NOT NULL CHECK (length(first_name) BETWEEN 1 AND 200 AND first_name !~ '[\r\n]'),
  last_name         text NOT NULL CHECK (length(last_name) BETWEEN 1 AND 200 AND last_name !~ '[\r\n]'),
  email             text NOT NULL CHECK (length(email) BETWEEN 3 AND 254 AND email !~ '[\r\n]'),
  phone             text CHECK (length(phone) <= 50),
  -- Where the entry came from, and the channel of the hold its offer makes: online (the booking page) or pos (staff).
  channel           text NOT NULL CHECK (channel IN ('online', 'pos')),
  state             text NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'offered', 'claimed', 'expired', 'removed')),
  -- The hold of the latest offer (and then the booking it became); kept when the entry is no longer live.
  booking_id        bigint REFERENCES bookings(id) ON DELETE SET NULL,
  offered_at        timestamptz,
  offer_expires_at  timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  CHECK (state <> 'offered' OR (booking_id IS NOT NULL AND offer_expires_at IS NOT NULL))
);
-- Joining twice with one address for one timeslot is one entry, as long as the first is live.
CREATE UNIQUE INDEX waitlist_entries_one_per_address ON waitlist_entries (timeslot_id, lower(email)) WHERE state IN ('waiting', 'offered');
-- The queue of a timeslot, in order; and the timeslots that have one (the offer pass's look).
CREATE INDEX waitlist_entries_waiting_idx ON waitlist_entries (timeslot_id, created_at, id) WHERE state = 'waiting';
CREATE INDEX waitlist_entries_offered_idx ON waitlist_entries (offer_expires_at) WHERE state = 'offered';
CREATE INDEX waitlist_entries_account_idx ON waitlist_entries (account_id, timeslot_id, id);
CREATE INDEX waitlist_entries_booking_idx ON waitlist_entries (booking_id) WHERE booking_id IS NOT NULL;

-- How long an offer holds its places (30 minutes by default), per account with its booking page.
ALTER TABLE booking_pages ADD COLUMN waitlist_offer_minutes integer NOT NULL DEFAULT 30 CHECK (waitlist_offer_minutes BETWEEN 5 AND 1440);

-- Down Migration
ALTER TABLE booking_pages DROP COLUMN waitlist_offer_minutes;
DROP TABLE waitlist_entries;
