-- skinpulse schema 008, PostgreSQL flavour (its twin is ../sqlite/007_item_variants.sql).
--
-- Item variants (docs/api.md §18): a Doppler or Gamma Doppler name has one catalogue item
-- per phase beside its base item. A variant item repeats the base's market_hash_name, so
-- the name alone is no longer unique: (market_hash_name, variant) is. `variant` is NULL
-- for every item that is not a variant; `variant_of` is the base item's id.
ALTER TABLE items ADD COLUMN variant TEXT COLLATE "C";
ALTER TABLE items ADD COLUMN variant_of BIGINT REFERENCES items (id);
ALTER TABLE items ADD CONSTRAINT items_variant_pair
  CHECK ((variant IS NULL) = (variant_of IS NULL));
ALTER TABLE items DROP CONSTRAINT items_market_hash_name_key;
-- NULL is never equal to NULL in a unique index: the base's NULL variant is folded to ''
-- so that a name has one base item. The leading market_hash_name serves name lookups.
CREATE UNIQUE INDEX items_name_variant ON items (market_hash_name, COALESCE(variant, ''));
CREATE INDEX items_variant_of ON items (variant_of) WHERE variant_of IS NOT NULL;
