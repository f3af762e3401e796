-- Up Migration

-- Which questions a booking's answers answer, and for which participant, as a short text array beside the answers:
-- 'Q' for every question answered, 'Q/P' for question Q answered for participant P. The manifest tells from it whether
-- a booking's waivers are complete without reading its answers, which hold whole names and texts (about 450 bytes a
-- booking in the benchmark's day; reading them was most of the manifest's time). A trigger keeps it on every write of
-- the answers, whoever writes them. packages/domain's waiversComplete reads the same format.
CREATE FUNCTION booking_answer_keys(answers jsonb) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT k.key ORDER BY k.key), '{}')
    FROM jsonb_array_elements(answers) AS a,
         LATERAL (VALUES (a->>'QuestionID'), ((a->>'QuestionID') || '/' || (a->>'Participant'))) AS k(key)
   WHERE k.key IS NOT NULL
$$;

CREATE FUNCTION bookings_answer_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.answer_keys := CASE WHEN NEW.answers = '[]'::jsonb THEN '{}' ELSE booking_answer_keys(NEW.answers) END;
  RETURN NEW;
END $$;

-- A constant default: no rewrite of the table.
ALTER TABLE bookings ADD COLUMN answer_keys text[] NOT NULL DEFAULT '{}';
CREATE TRIGGER bookings_answer_keys BEFORE INSERT OR UPDATE OF answers ON bookings
  FOR EACH ROW EXECUTE FUNCTION bookings_answer_keys();

-- The bookings answered before: filling the keys is not a change of the booking (the partners' sync feed stays still).
ALTER TABLE bookings DISABLE TRIGGER bookings_touch;
UPDATE bookings SET answer_keys = booking_answer_keys(answers) WHERE answers <> '[]'::jsonb;
ALTER TABLE bookings ENABLE TRIGGER bookings_touch;

-- Down Migration
DROP TRIGGER bookings_answer_keys ON bookings;
ALTER TABLE bookings DROP COLUMN answer_keys;
DROP FUNCTION bookings_answer_keys();
DROP FUNCTION booking_answer_keys(jsonb);
