-- skinpulse schema 010, PostgreSQL only (SQLite keeps one table: docs/adr/0026-partitions-and-rollups.md).
--
-- price_points becomes a table partitioned by RANGE (time): one partition per UTC day,
-- price_points_pYYYYMMDD, created ahead by the daemon (store/postgres/PostgresPartitions),
-- plus a DEFAULT partition for what no day partition covers (history backfilled before
-- the first day partition, and each series' reference point kept past its day). Retention
-- then drops whole partitions instead of deleting rows one by one.
--
-- The existing table is not copied: it is renamed and attached as one partition covering
-- everything up to the next UTC midnight. Attaching reads it once to check the bound (a
-- sequential scan, no write, no copy); its primary key and time index become the
-- partitions' own, so no index is rebuilt either. Retention drops it whole once the
-- newest day it covers has passed the raw retention.
ALTER TABLE price_points RENAME TO price_points_legacy;
ALTER TABLE price_points_legacy RENAME CONSTRAINT price_points_pkey TO price_points_legacy_pkey;
ALTER INDEX price_points_time RENAME TO price_points_legacy_time;

-- The same columns, defaults and checks as before (the checks keep their names: a
-- partition must carry every check of its parent, matched by name).
CREATE TABLE price_points (
  item_id BIGINT NOT NULL,
  source TEXT COLLATE "C" NOT NULL,
  time BIGINT NOT NULL,
  price BIGINT NOT NULL,
  volume BIGINT NOT NULL DEFAULT 0,
  kind TEXT NOT NULL DEFAULT 'ask',
  listings BIGINT,
  outlier SMALLINT NOT NULL DEFAULT 0,
  CONSTRAINT price_points_kind_check CHECK (kind IN ('ask', 'bid', 'sale', 'reference')),
  CONSTRAINT price_points_outlier_check CHECK (outlier IN (0, 1)),
  PRIMARY KEY (item_id, source, time)
) PARTITION BY RANGE (time);

-- Retention and window rebuilds scan by time across all items, as before.
CREATE INDEX price_points_time ON price_points (time);

-- Up to the second UTC midnight from now: the day partitions the daemon creates start there. A point
-- stored up to five minutes ahead (docs/api.md §4) is inside it unless the migration runs
-- in the last minutes of a day, when the attach would refuse it: one more day of margin.
ALTER TABLE price_points ATTACH PARTITION price_points_legacy FOR VALUES FROM (MINVALUE)
  TO ((floor(extract(epoch FROM now()) / 86400)::bigint + 2) * 86400);

CREATE TABLE price_points_default PARTITION OF price_points DEFAULT;
