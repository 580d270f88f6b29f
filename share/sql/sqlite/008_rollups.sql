-- skinpulse schema 008, SQLite flavour (its twin is ../postgresql/009_rollups.sql).
--
-- History that lasts (docs/api.md §20, docs/adr/0026-partitions-and-rollups.md): hourly
-- and daily OHLCV bars per (item, source), kept far longer than the raw points. A bar is
-- the fold of store/Ohlcv.cpp (mergeBar) over the points of its bucket that are not
-- outliers: open is the price of the earliest point (open_time), close the price of the
-- latest (close_time); both times are kept so a later point, arriving out of order, still
-- lands in the right place. The store maintains the bars in the transaction that stores
-- the points; this migration builds them once from the raw points already stored.
CREATE TABLE price_rollups_hourly (
  item_id INTEGER NOT NULL,
  source TEXT NOT NULL,
  start INTEGER NOT NULL,
  open INTEGER NOT NULL,
  high INTEGER NOT NULL,
  low INTEGER NOT NULL,
  close INTEGER NOT NULL,
  volume INTEGER NOT NULL,
  samples INTEGER NOT NULL,
  open_time INTEGER NOT NULL,
  close_time INTEGER NOT NULL,
  PRIMARY KEY (item_id, source, start)
) WITHOUT ROWID;

CREATE TABLE price_rollups_daily (
  item_id INTEGER NOT NULL,
  source TEXT NOT NULL,
  start INTEGER NOT NULL,
  open INTEGER NOT NULL,
  high INTEGER NOT NULL,
  low INTEGER NOT NULL,
  close INTEGER NOT NULL,
  volume INTEGER NOT NULL,
  samples INTEGER NOT NULL,
  open_time INTEGER NOT NULL,
  close_time INTEGER NOT NULL,
  PRIMARY KEY (item_id, source, start)
) WITHOUT ROWID;

-- Rollup retention deletes by start across all series.
CREATE INDEX price_rollups_hourly_start ON price_rollups_hourly (start);
CREATE INDEX price_rollups_daily_start ON price_rollups_daily (start);

-- The bars of the points already stored. Buckets are floor(time / size) * size, also for
-- times before the epoch; open and close are read back by key at the bucket's extreme
-- times (a key is unique, so each is one point).
INSERT INTO price_rollups_hourly (item_id, source, start, open, high, low, close, volume,
                                  samples, open_time, close_time)
SELECT g.item_id, g.source, g.start,
  (SELECT o.price FROM price_points o
    WHERE o.item_id = g.item_id AND o.source = g.source AND o.time = g.open_time),
  g.high, g.low,
  (SELECT c.price FROM price_points c
    WHERE c.item_id = g.item_id AND c.source = g.source AND c.time = g.close_time),
  g.volume, g.samples, g.open_time, g.close_time
FROM (SELECT item_id, source, time - (((time % 3600) + 3600) % 3600) AS start,
        MAX(price) AS high, MIN(price) AS low, SUM(volume) AS volume, COUNT(*) AS samples,
        MIN(time) AS open_time, MAX(time) AS close_time
      FROM price_points WHERE outlier = 0
      GROUP BY item_id, source, time - (((time % 3600) + 3600) % 3600)) AS g;

INSERT INTO price_rollups_daily (item_id, source, start, open, high, low, close, volume,
                                 samples, open_time, close_time)
SELECT g.item_id, g.source, g.start,
  (SELECT o.price FROM price_points o
    WHERE o.item_id = g.item_id AND o.source = g.source AND o.time = g.open_time),
  g.high, g.low,
  (SELECT c.price FROM price_points c
    WHERE c.item_id = g.item_id AND c.source = g.source AND c.time = g.close_time),
  g.volume, g.samples, g.open_time, g.close_time
FROM (SELECT item_id, source, time - (((time % 86400) + 86400) % 86400) AS start,
        MAX(price) AS high, MIN(price) AS low, SUM(volume) AS volume, COUNT(*) AS samples,
        MIN(time) AS open_time, MAX(time) AS close_time
      FROM price_points WHERE outlier = 0
      GROUP BY item_id, source, time - (((time % 86400) + 86400) % 86400)) AS g;

-- The cycle log (docs/operations.md, "Run a fleet"): one row per stored cycle, written in
-- the cycle's transaction, so a standby instance can follow the polling one cycle by cycle.
-- AUTOINCREMENT: a sequence number is never reused, even after the newest row is pruned.
-- Kept one day.
CREATE TABLE ingest_cycles (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  stored_at INTEGER NOT NULL,
  min_time INTEGER NOT NULL,
  max_time INTEGER NOT NULL,
  points INTEGER NOT NULL
);
