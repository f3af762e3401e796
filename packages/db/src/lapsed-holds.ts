/**
 * Participants of the timeslot `t`'s holds that have expired but are not yet released: a SQL expression for the reads
 * of availability, whose places are free from the instant a hold lapses (see timeslots.repository.ts).
 */
export const LAPSED_HOLDS = `coalesce((SELECT sum(h.participants) FROM bookings h
                                 WHERE h.timeslot_id = t.id AND h.status = 'on_hold' AND h.expires_at <= now()), 0)::int`;
