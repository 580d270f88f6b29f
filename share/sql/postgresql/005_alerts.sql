-- skinpulse schema 005, PostgreSQL flavour (its twin is ../sqlite/004_alerts.sql).
--
-- Alerts (docs/api.md §13, docs/adr/0015-alerts.md): users' rules, the state their edge
-- detection keeps, and the durable outbox of deliveries.

-- condition and channels are the JSON forms of daemon/alerts/RuleJson (channels keep
-- their secrets: webhook secret, bot token; never returned after creation). last_state:
-- whether the condition held at the last evaluation (1) — a rule fires on 0 → 1.
CREATE TABLE alert_rules (
  id BIGINT PRIMARY KEY,
  user_id TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  item_id BIGINT NOT NULL,
  condition TEXT NOT NULL,
  channels TEXT NOT NULL,
  cooldown_seconds BIGINT NOT NULL,
  enabled BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  last_fired_at BIGINT,
  last_state BIGINT NOT NULL DEFAULT 0
);

CREATE INDEX alert_rules_user ON alert_rules (user_id, id);

-- One row per (firing, channel): written in the transaction that records the firing,
-- sent by the delivery workers, kept with its outcome (GET /api/v1/alerts/:id/deliveries).
-- id is the delivery id the receiver sees (X-Skinpulse-Delivery), the same on every
-- attempt. status: pending (due at next_attempt_at; a claimed row is leased by moving
-- next_attempt_at forward), delivered, failed (final). channel is the target with its
-- secrets as it was when the rule fired; body is what is sent.
CREATE TABLE alert_deliveries (
  id TEXT COLLATE "C" PRIMARY KEY,
  rule_id BIGINT NOT NULL REFERENCES alert_rules (id) ON DELETE CASCADE,
  user_id TEXT COLLATE "C" NOT NULL,
  channel_type TEXT NOT NULL,
  channel TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts BIGINT NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  last_attempt_at BIGINT,
  response_status BIGINT,
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
