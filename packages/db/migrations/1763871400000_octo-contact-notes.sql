-- Up Migration

-- OCTO's contact has notes of its own, apart from the booking's notes (issue 40: the validator sends both and expects
-- each echoed). Kept with the booking like its other OCTO members; null until a contact brings notes.
ALTER TABLE bookings ADD COLUMN octo_contact_notes text CHECK (length(octo_contact_notes) <= 2000);

-- Down Migration
ALTER TABLE bookings DROP COLUMN octo_contact_notes;
