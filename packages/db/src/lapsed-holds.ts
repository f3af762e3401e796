/**
 * Participants of the timeslot `t`'s holds that have expired but are not yet released: a SQL expression for the reads
 * of availability, whose places are free from the instant a hold lapses (see timeslots.repository.ts). The expiry is
 * tested in the FILTER, not the WHERE, so that PostgreSQL reads only this timeslot's holds (bookings_holds_idx) and
 * never the lapsed holds of every timeslot (migration 1763708000000_hold-expiry-index.sql).
 */
export const LAPSED_HOLDS = `coalesce((SELECT sum(h.participants) FILTER (WHERE h.expires_at <= now() AND NOT h.test) FROM bookings h
                                 WHERE h.timeslot_id = t.id AND h.status = 'on_hold'), 0)::int`;

/** The same for the sandbox's test places (test holds, counted in test_booked). */
export const LAPSED_TEST_HOLDS = `coalesce((SELECT sum(h.participants) FILTER (WHERE h.expires_at <= now() AND h.test) FROM bookings h
                                 WHERE h.timeslot_id = t.id AND h.status = 'on_hold'), 0)::int`;

/**
 * The places of timeslot `t` taken in one mode, lapsed holds counted free: live places, or the sandbox's test places
 * (the same capacity, counted apart). The mode is chosen here, in the statement's text, not by a parameter: a CASE on
 * a parameter made PostgreSQL prefer a custom plan of each execution (it folds the CASE) to the shared generic plan,
 * and plan the availability reads again every time. Statements built with it carry the mode in their names.
 */
export const bookedIn = (test: boolean): string => (test ? `(t.test_booked - ${LAPSED_TEST_HOLDS})` : `(t.booked - ${LAPSED_HOLDS})`);

/** The name of a prepared statement whose text depends on the mode (see bookedIn). */
export const statementIn = (name: string, test: boolean): string => (test ? `${name}-test` : name);
