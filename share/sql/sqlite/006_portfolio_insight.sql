-- skinpulse schema 006, SQLite flavour (its twin is ../postgresql/007_portfolio_insight.sql).
--
-- Portfolio insight (docs/api.md §15, docs/adr/0017-portfolio-insight.md): what a user
-- paid per unit of an item, and the hourly value snapshots of each portfolio.

-- What a user says they paid for an item: cost_basis in cents per unit, acquired_at in
-- Unix seconds, each null when not given (a row with both null is deleted). A table of
-- its own rather than columns of holdings: an import deletes the holdings that left the
-- inventory, but an item moved to a storage unit (or held in a trade) comes back, and
-- its cost basis with it. PATCH {"cost_basis":null} clears one.
CREATE TABLE holding_costs (
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  item_id INTEGER NOT NULL,
  cost_basis INTEGER CHECK (cost_basis >= 0),
  acquired_at INTEGER,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, item_id)
) WITHOUT ROWID;

-- holdings.cost_basis: a copy of holding_costs.cost_basis for the held items, kept by the
-- store in the transactions that write either table (an import, a PATCH). The hourly pass
-- sums quantity × price and quantity × cost_basis per user over every holding; with the
-- copy and the index below it is one scan of a covering index instead of a lookup into
-- holdings and one into holding_costs per row (1.25 s → 0.48 s for 2,000,000 holdings on
-- SQLite, bench/README.md "snapshots/run.sh").
ALTER TABLE holdings ADD COLUMN cost_basis INTEGER;

CREATE INDEX holdings_value ON holdings (user_id, item_id, quantity, cost_basis);

-- One row per user and hour (hour = Unix seconds of the hour's start): a second snapshot
-- within the same hour replaces the first. taken_at is when it was taken, total_value and
-- cost_total are cents. Pruned after [portfolio] history_retention_days.
CREATE TABLE portfolio_snapshots (
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  hour INTEGER NOT NULL,
  taken_at INTEGER NOT NULL,
  total_value INTEGER NOT NULL,
  cost_total INTEGER NOT NULL,
  PRIMARY KEY (user_id, hour)
) WITHOUT ROWID;

-- The pruning pass deletes by hour across users.
CREATE INDEX portfolio_snapshots_hour ON portfolio_snapshots (hour);
