-- Up Migration

-- The outbox relay polls for unsent rows through the partial index on sent_at IS NULL. Marking a row sent leaves its
-- old version, and its entry in that index, until a vacuum; the relay's poll reads past every such entry. With the
-- default thresholds (20% of the table) a large outbox gathers hundreds of thousands of them between vacuums: 265 ms
-- for a poll over 500,000 instead of under 1 ms. A fixed threshold has autovacuum clean the table every 10,000 changed
-- rows, whatever its size.
ALTER TABLE outbox_events SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000,
                               autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 10000);

-- Down Migration

ALTER TABLE outbox_events RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold,
                                 autovacuum_analyze_scale_factor, autovacuum_analyze_threshold);
