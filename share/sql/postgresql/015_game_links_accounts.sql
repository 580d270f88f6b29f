-- skinpulse schema 015, PostgreSQL flavour (its twin is ../sqlite/012_game_links_accounts.sql).
--
-- Several game-platform accounts per user (docs/api.md §23.2): a user may link more than
-- one platform id, each verified by OpenID, so game_links is keyed by (user_id,
-- platform_id) instead of user_id alone. A platform id still belongs to one user at most
-- (its UNIQUE constraint stays). `label` is the user's own name for an account
-- ("storage"), '' by default. Every existing link is kept with its linked_at; the oldest
-- link of a user is the one GET /api/v1/auth/me still reports as `gameid`.
ALTER TABLE game_links DROP CONSTRAINT game_links_pkey;
ALTER TABLE game_links ADD PRIMARY KEY (user_id, platform_id);
ALTER TABLE game_links ADD COLUMN label TEXT NOT NULL DEFAULT '';
