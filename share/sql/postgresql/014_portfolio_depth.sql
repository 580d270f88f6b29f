-- skinpulse schema 014, PostgreSQL flavour (its twin is ../sqlite/011_portfolio_depth.sql).
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
-- PostgreSQL changes the key in place; existing rows move to the account the user has
-- linked now (at most one before migration 015 allows several).
ALTER TABLE holdings ADD COLUMN holding_id BIGSERIAL;
ALTER TABLE holdings ADD COLUMN account TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE holdings ADD COLUMN applied_key TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE holdings ADD COLUMN applied TEXT NOT NULL DEFAULT '[]';

UPDATE holdings h SET account = g.platform_id FROM game_links g WHERE g.user_id = h.user_id;

ALTER TABLE holdings DROP CONSTRAINT holdings_pkey;
ALTER TABLE holdings ADD PRIMARY KEY (holding_id);
ALTER TABLE holdings ADD CONSTRAINT holdings_identity
  UNIQUE (user_id, account, item_id, applied_key);

-- When each account of a user was last imported; the Portfolio's last_imported_at is the
-- newest of them.
ALTER TABLE import_metadata ADD COLUMN account TEXT COLLATE "C" NOT NULL DEFAULT '';

UPDATE import_metadata m SET account = g.platform_id FROM game_links g
  WHERE g.user_id = m.user_id;

ALTER TABLE import_metadata DROP CONSTRAINT import_metadata_pkey;
ALTER TABLE import_metadata ADD PRIMARY KEY (user_id, account);

-- Units that left an account's inventory at an import ("left on <date>", docs/api.md
-- §23.4), written in the transaction that replaces the account's holdings: one row per
-- identity and import, of the units that went. last_price is the item's price per unit
-- when the import noticed (0 without one); cost_basis and acquired_at are copies of the
-- user's holding_costs at that moment (later edits of the cost basis do not rewrite
-- history). sale_price is what the user says a unit sold for. A later import of the same
-- account that brings units of the identity back withdraws departures without a
-- sale_price first (an item moved to a storage unit and back is no sale).
CREATE TABLE holding_departures (
  departure_id BIGSERIAL PRIMARY KEY,
  user_id TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  account TEXT COLLATE "C" NOT NULL DEFAULT '',
  item_id BIGINT NOT NULL REFERENCES items (id),
  applied_key TEXT COLLATE "C" NOT NULL DEFAULT '',
  applied TEXT NOT NULL DEFAULT '[]',
  quantity BIGINT NOT NULL CHECK (quantity > 0),
  left_at BIGINT NOT NULL,
  last_price BIGINT NOT NULL CHECK (last_price >= 0),
  cost_basis BIGINT CHECK (cost_basis >= 0),
  acquired_at BIGINT,
  sale_price BIGINT CHECK (sale_price >= 0),
  sale_price_set_at BIGINT
);

-- The withdrawal looks departures up by identity; the list by user (its leading column).
CREATE INDEX holding_departures_identity
  ON holding_departures (user_id, account, item_id, applied_key);
