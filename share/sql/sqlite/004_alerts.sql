-- skinpulse schema 004, SQLite flavour (its twin is ../postgresql/005_alerts.sql).
--
-- Alerts (docs/api.md §13, docs/adr/0015-alerts.md): users' rules, the state their edge
-- detection keeps, and the durable outbox of deliveries.

-- condition and channels are the JSON forms of daemon/alerts/RuleJson (channels keep
-- their secrets: webhook secret, bot token; never returned after creation). last_state:
-- whether the condition held at the last evaluation (1) — a rule fires on 0 → 1.
CREATE TABLE alert_rules (
  id INTEGER PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  item_id INTEGER NOT NULL,
  condition TEXT NOT NULL,
  channels TEXT NOT NULL,
  cooldown_seconds INTEGER NOT NULL,
  enabled INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  last_fired_at INTEGER,
  last_state INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX alert_rules_user ON alert_rules (user_id, id);

-- One row per (firing, channel): written in the transaction that records the firing,
-- sent by the delivery workers, kept with its outcome (GET /api/v1/alerts/:id/deliveries).
-- id is the delivery id the receiver sees (X-Skinpulse-Delivery), the same on every
-- attempt. status: pending (due at next_attempt_at; a claimed row is leased by moving
-- next_attempt_at forward), delivered, failed (final). channel is the target with its
-- secrets as it was when the rule fired; body is what is sent.
CREATE TABLE alert_deliveries (
  id TEXT PRIMARY KEY,
  rule_id INTEGER NOT NULL REFERENCES alert_rules (id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  channel_type TEXT NOT NULL,
  channel TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  last_attempt_at INTEGER,
  response_status INTEGER,
  last_error TEXT NOT NULL DEFAULT ''
);

CREATE INDEX alert_deliveries_due ON alert_deliveries (status, next_attempt_at);
CREATE INDEX alert_deliveries_rule ON alert_deliveries (rule_id, created_at);

-- One row: bumped by every rule insert, update and delete. The instance that evaluates
-- compares it after each cycle and reloads its in-memory rules when another instance
-- changed them (docs/adr/0015-alerts.md).
CREATE TABLE alert_rules_revision (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  revision BIGINT NOT NULL
);
INSERT INTO alert_rules_revision (id, revision) VALUES (1, 0);
