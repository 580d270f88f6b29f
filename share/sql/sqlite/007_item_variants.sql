-- skinpulse schema 007, SQLite flavour (its twin is ../postgresql/008_item_variants.sql).
-- migrate: foreign_keys off
--
-- Item variants (docs/api.md §18): a Doppler or Gamma Doppler name has one catalogue item
-- per phase beside its base item. A variant item repeats the base's market_hash_name, so
-- the name alone is no longer unique: (market_hash_name, variant) is. `variant` is NULL
-- for every item that is not a variant; `variant_of` is the base item's id.
--
-- SQLite cannot drop the UNIQUE of items.market_hash_name in place: the table is rebuilt
-- (https://www.sqlite.org/lang_altertable.html, "Making Other Kinds Of Table Schema
-- Changes"). Dropping `items` while price_points and holdings reference it breaks the
-- foreign keys for a moment, so the runner applies this file with foreign keys off and
-- runs PRAGMA foreign_key_check before its COMMIT (the line "migrate: foreign_keys off"
-- above asks for that; daemon/store/Migrator.cpp). Ids are copied, so every reference
-- stays valid.
CREATE TABLE items_rebuilt (
  id INTEGER PRIMARY KEY,
  market_hash_name TEXT NOT NULL,
  weapon_type TEXT NOT NULL DEFAULT '',
  skin_name TEXT NOT NULL DEFAULT '',
  rarity TEXT NOT NULL DEFAULT '',
  stattrak INTEGER NOT NULL DEFAULT 0 CHECK (stattrak IN (0, 1)),
  image_url TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  variant TEXT,
  variant_of INTEGER REFERENCES items (id),
  CHECK ((variant IS NULL) = (variant_of IS NULL))
);

INSERT INTO items_rebuilt (id, market_hash_name, weapon_type, skin_name, rarity, stattrak,
                           image_url, created_at)
  SELECT id, market_hash_name, weapon_type, skin_name, rarity, stattrak, image_url, created_at
  FROM items;

DROP TABLE items;

ALTER TABLE items_rebuilt RENAME TO items;

-- NULL is never equal to NULL in a unique index: the base's NULL variant is folded to ''
-- so that a name has one base item. The leading market_hash_name serves name lookups.
CREATE UNIQUE INDEX items_name_variant ON items (market_hash_name, COALESCE(variant, ''));
CREATE INDEX items_variant_of ON items (variant_of) WHERE variant_of IS NOT NULL;
