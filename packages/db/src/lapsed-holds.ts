/**
 * Participants of the timeslot `t`'s holds that have expired but are not yet released: a SQL expression for the reads
 * of availability, whose places are free from the instant a hold lapses (see timeslots.repository.ts). The expiry is
 * tested in the FILTER, not the WHERE, so that PostgreSQL reads only this timeslot's holds (bookings_holds_idx) and
 * never the lapsed holds of every timeslot (migration 1763708000000_hold-expiry-index.sql).
 */
export const LAPSED_HOLDS = `coalesce((SELECT sum(h.participants) FILTER (WHERE h.expires_at <= now()) FROM bookings h
                                 WHERE h.timeslot_id = t.id AND h.status = 'on_hold'), 0)::int`;
