-- skinpulse schema 012, PostgreSQL flavour (its twin is ../sqlite/009_api_keys.sql).
--
-- API keys (docs/api.md, "API keys and read budgets"; docs/adr/0028-api-keys-and-read-budgets.md):
-- a signed-in user's keys for the public read API. The secret is never stored: secret_hash
-- is hex(SHA-256(key)), prefix its first characters for display. requests and
-- rate_limited are the reads the daemons counted under the key, added in batches (not a
-- write per request); last_used_at is the newest of those batches' last use. A revoked key
-- is deleted.
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  secret_hash TEXT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT,
  requests BIGINT NOT NULL DEFAULT 0,
  rate_limited BIGINT NOT NULL DEFAULT 0
);

CREATE INDEX api_keys_user ON api_keys (user_id, created_at);
