-- skinpulse schema 003, SQLite flavour (its twin is ../postgresql/004_price_outlier.sql).
--
-- Cross-market truth (docs/api.md §12, docs/adr/0014-cross-market-quality.md): a point
-- flagged as an outlier at ingest keeps its flag in the store, so a rebuild of the caches
-- and metrics from the store leaves out exactly what the cycles left out. 1 = outlier.
-- Existing rows were never judged: they are kept as they were counted, not outliers.
ALTER TABLE price_points ADD COLUMN outlier INTEGER NOT NULL DEFAULT 0 CHECK (outlier IN (0, 1));
