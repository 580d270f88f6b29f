-- skinpulse schema 011, SQLite flavour (its twin is ../postgresql/014_portfolio_depth.sql).
--
-- Portfolio depth (docs/api.md §23, docs/adr/0030-portfolio-depth.md). A holding was one
-- (user, item); it becomes one (user, account, item, what is applied to it):
--   account      the 17-digit platform id the holding was imported from; '' when the
--                user had no link when this migration ran (an import replaces those).
--   applied_key  canonical text of what is applied (stickers by slot, then charms by
--                slot: "s0=5012;s1=5012;c0=9001", "=n:<name>" for a name the catalogue
--                lacks); '' when nothing is. Identical assets stay one row, assets that
--                differ in what is applied are rows apart.
--   applied      the same as JSON for the answers:
--                [{"kind":"sticker","slot":0,"name":"Sticker | ...","item_id":5012|null}]
--   holding_id   stable while the holding exists (an import that keeps it updates it).
-- Nothing references holdings, so the table is rebuilt (SQLite cannot change a primary
-- key in place: https://www.sqlite.org/lang_altertable.html) with the foreign keys on.
-- Existing rows move to the account the user has linked now (at most one before
-- migration 012 allows several), their cost copy with them.
CREATE TABLE holdings_rebuilt (
  holding_id INTEGER PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  account TEXT NOT NULL DEFAULT '',
  item_id INTEGER NOT NULL REFERENCES items (id),
  applied_key TEXT NOT NULL DEFAULT '',
  applied TEXT NOT NULL DEFAULT '[]',
  quantity INTEGER NOT NULL CHECK (quantity >= 0),
  imported_at INTEGER NOT NULL,
  cost_basis INTEGER,
  UNIQUE (user_id, account, item_id, applied_key)
);

INSERT INTO holdings_rebuilt (user_id, account, item_id, quantity, imported_at, cost_basis)
  SELECT h.user_id,
         COALESCE((SELECT g.platform_id FROM game_links g WHERE g.user_id = h.user_id), ''),
         h.item_id, h.quantity, h.imported_at, h.cost_basis
  FROM holdings h ORDER BY h.user_id, h.item_id;

DROP TABLE holdings;

ALTER TABLE holdings_rebuilt RENAME TO holdings;

-- The hourly pass's covering index (migration 006): one row per holding now, each with
-- its own quantity and its cost copy, so the per-user sums stay one index scan.
CREATE INDEX holdings_value ON holdings (user_id, item_id, quantity, cost_basis);

-- When each account of a user was last imported; the Portfolio's last_imported_at is the
-- newest of them.
CREATE TABLE import_metadata_rebuilt (
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  account TEXT NOT NULL DEFAULT '',
  last_imported_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, account)
) WITHOUT ROWID;

INSERT INTO import_metadata_rebuilt (user_id, account, last_imported_at)
  SELECT m.user_id,
         COALESCE((SELECT g.platform_id FROM game_links g WHERE g.user_id = m.user_id), ''),
         m.last_imported_at
  FROM import_metadata m;

DROP TABLE import_metadata;

ALTER TABLE import_metadata_rebuilt RENAME TO import_metadata;

-- Units that left an account's inventory at an import ("left on <date>", docs/api.md
-- §23.4), written in the transaction that replaces the account's holdings: one row per
-- identity and import, of the units that went. last_price is the item's price per unit
-- when the import noticed (0 without one); cost_basis and acquired_at are copies of the
-- user's holding_costs at that moment (later edits of the cost basis do not rewrite
-- history). sale_price is what the user says a unit sold for. A later import of the same
-- account that brings units of the identity back withdraws departures without a
-- sale_price first (an item moved to a storage unit and back is no sale).
CREATE TABLE holding_departures (
  departure_id INTEGER PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  account TEXT NOT NULL DEFAULT '',
  item_id INTEGER NOT NULL REFERENCES items (id),
  applied_key TEXT NOT NULL DEFAULT '',
  applied TEXT NOT NULL DEFAULT '[]',
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  left_at INTEGER NOT NULL,
  last_price INTEGER NOT NULL CHECK (last_price >= 0),
  cost_basis INTEGER CHECK (cost_basis >= 0),
  acquired_at INTEGER,
  sale_price INTEGER CHECK (sale_price >= 0),
  sale_price_set_at INTEGER
);

-- The withdrawal looks departures up by identity; the list by user (its leading column).
CREATE INDEX holding_departures_identity
  ON holding_departures (user_id, account, item_id, applied_key);
