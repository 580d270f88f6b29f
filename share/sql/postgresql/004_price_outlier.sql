-- skinpulse schema 004, PostgreSQL flavour (its twin is ../sqlite/003_price_outlier.sql).
--
-- Cross-market truth (docs/api.md §12, docs/adr/0014-cross-market-quality.md): a point
-- flagged as an outlier at ingest keeps its flag in the store, so a rebuild of the caches
-- and metrics from the store leaves out exactly what the cycles left out. 1 = outlier.
-- Existing rows were never judged: they are kept as they were counted, not outliers.
-- SMALLINT rather than BOOLEAN: both backends read it into the same integer column, and a
-- constant default needs no table rewrite (PostgreSQL 11+).
ALTER TABLE price_points ADD COLUMN outlier SMALLINT NOT NULL DEFAULT 0 CHECK (outlier IN (0, 1));
