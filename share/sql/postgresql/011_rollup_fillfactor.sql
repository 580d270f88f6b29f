-- skinpulse schema 011, PostgreSQL only (SQLite has no fillfactor).
--
-- A cycle updates most of the rollup bars it touches (an hourly bar takes twelve polls, a
-- daily one 288). With free room left on each page, PostgreSQL writes the new version of
-- a bar on the same page and, as no indexed column changes, skips the primary-key index
-- entry (a HOT update): fewer pages dirtied and less index bloat per cycle
-- (docs/adr/0026-partitions-and-rollups.md, costs). Pages written from now on keep 30 %
-- free; existing pages are left as they are until rewritten (VACUUM FULL, CLUSTER).
ALTER TABLE price_rollups_hourly SET (fillfactor = 70);
ALTER TABLE price_rollups_daily SET (fillfactor = 70);
