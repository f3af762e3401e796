-- Up Migration
-- Per-guest check-in (issue 39): how many of a checked-in party arrived, when not all of them (3 of 4). NULL with
-- checked_in_at set is the whole party, as every check-in before this was. No CHECK against participants: a party
-- made smaller after its check-in must not fail on it; readers take the smaller of the two. Adding a nullable column
-- without a default rewrites nothing.
ALTER TABLE bookings ADD COLUMN checked_in_participants integer CHECK (checked_in_participants >= 1);

-- Down Migration
ALTER TABLE bookings DROP COLUMN checked_in_participants;
