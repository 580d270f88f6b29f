-- skinpulse schema 002, PostgreSQL only (SQLite keeps its foreign key: there it is cheap).
--
-- The foreign key price_points -> items ran a trigger per inserted row that looked up and
-- share-locked the item: with 100,000 points per cycle it was half of the cycle's time
-- (bench/README.md, ingest). Every insert on PostgreSQL now goes through the COPY path
-- (daemon/store/postgres/PostgresCopy.cpp), which refuses a whole batch naming an unknown
-- item with one anti-join before merging, so the rule "a price point belongs to a
-- catalogue item" still holds for everything the daemon writes. Items are never deleted.
ALTER TABLE price_points DROP CONSTRAINT IF EXISTS price_points_item_id_fkey;
