-- skinpulse schema 003, PostgreSQL flavour (its twin is ../sqlite/002_price_kind_listings.sql;
-- the PostgreSQL 002 has no SQLite twin).
--
-- SDK ABI 1.2 (docs/adr/0011-sdk-abi-1-2.md): a price point says what kind of price it is
-- and how many listings its market had, apart from traded volume.
--
-- kind: 'ask' (lowest listing), 'bid' (highest buy order), 'sale' (a sale or a sales
-- average) or 'reference' (a suggested price). Every source that existed before this
-- migration reported asks (skinport min_price, steam_market lowest_price, csfloat's
-- cheapest listing, simulated, json_http feeds of listings), so existing rows are 'ask'.
-- A constant default is kept in the system catalog (PostgreSQL 11+): no table rewrite.
ALTER TABLE price_points ADD COLUMN kind TEXT NOT NULL DEFAULT 'ask'
  CHECK (kind IN ('ask', 'bid', 'sale', 'reference'));

-- listings: the number of current listings when the source gives it; NULL when unknown.
ALTER TABLE price_points ADD COLUMN listings BIGINT;

-- volume is traded volume only. The skinport plugin stored Skinport's `quantity`, which is
-- the number of listings (the /v1/items endpoint of Skinport has no traded volume), as volume: move it
-- to listings and set volume to 0 ("unknown"). Only rows of the shipped instance name
-- skinport can be recognised; an instance of the skinport plugin under another name
-- needs the same UPDATE with its name (docs/upstreams.md, Skinport).
UPDATE price_points SET listings = volume, volume = 0 WHERE source = 'skinport';
