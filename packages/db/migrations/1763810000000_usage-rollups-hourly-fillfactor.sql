-- Up Migration

-- A batch adds to every (hour, meter) it covers: 1,000 entries over a day and 10 meters update 250 hourly rollup rows.
-- With pages packed full, each update found no room for the new row version on its page, so it went to another page
-- and added an entry to the primary key (14% of the updates were HOT in a profile of the batch bench): 4 WAL records
-- and 13 buffer reads per rollup row. Rows inserted from now on leave 80% of their page free, which holds the next
-- versions until the page is pruned: 98% HOT, 2 WAL records and 5 buffer reads per row. Summaries read hourly rows
-- only for the edges of a period, so the sparser pages cost them little; the daily rollups (80% HOT already, and
-- read by every summary) keep packed pages. Existing pages are not rewritten: their hours are mostly past.
ALTER TABLE usage_rollups_hourly SET (fillfactor = 20);

-- Down Migration

ALTER TABLE usage_rollups_hourly RESET (fillfactor);
