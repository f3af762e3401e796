-- Up Migration
-- How a point-of-sale sale was paid (issue 39, payment at the desk): cash, card or other; NULL for the other channels
-- and for sales made before this was recorded. The end-of-day cash-up sums the day's sales by it. Nullable without a
-- default: nothing is rewritten.
ALTER TABLE bookings ADD COLUMN payment_method text CHECK (payment_method IN ('cash', 'card', 'other'));

-- Down Migration
ALTER TABLE bookings DROP COLUMN payment_method;
