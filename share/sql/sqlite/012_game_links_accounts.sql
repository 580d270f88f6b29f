-- skinpulse schema 012, SQLite flavour (its twin is ../postgresql/015_game_links_accounts.sql).
--
-- Several game-platform accounts per user (docs/api.md §23.2): a user may link more than
-- one platform id, each verified by OpenID, so game_links is keyed by (user_id,
-- platform_id) instead of user_id alone. A platform id still belongs to one user at most
-- (UNIQUE). `label` is the user's own name for an account ("storage"), '' by default.
-- Every existing link is kept with its linked_at; the oldest link of a user is the one
-- GET /api/v1/auth/me still reports as `gameid`.
--
-- SQLite cannot change a primary key in place: the table is rebuilt
-- (https://www.sqlite.org/lang_altertable.html, "Making Other Kinds Of Table Schema
-- Changes"). No table references game_links, so foreign keys stay on.
CREATE TABLE game_links_rebuilt (
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  platform_id TEXT NOT NULL UNIQUE,
  linked_at INTEGER NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (user_id, platform_id)
);

INSERT INTO game_links_rebuilt (user_id, platform_id, linked_at)
  SELECT user_id, platform_id, linked_at FROM game_links;

DROP TABLE game_links;

ALTER TABLE game_links_rebuilt RENAME TO game_links;
