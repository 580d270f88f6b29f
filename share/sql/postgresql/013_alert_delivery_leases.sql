-- skinpulse schema 013, PostgreSQL flavour (its twin is ../sqlite/010_alert_delivery_leases.sql).
--
-- Leases of the alert outbox that a late worker cannot overwrite, and per-user fairness
-- (docs/api.md §13, "Delivery"). A claimed delivery gets a fresh lease_token and
-- leased_until (the attempt's deadline plus a margin); the attempt's outcome is written
-- only while the row still carries that token, so a worker that finishes after its lease
-- ran out (and another took the delivery) changes nothing. leased_until in the future
-- marks an attempt in flight: the claim skips users who already have their share of the
-- delivery workers in flight. Finished rows are pruned by last_attempt_at after
-- [alerts] delivery_retention_days.
ALTER TABLE alert_deliveries ADD COLUMN lease_token TEXT NOT NULL DEFAULT '';
ALTER TABLE alert_deliveries ADD COLUMN leased_until BIGINT;

CREATE INDEX alert_deliveries_leased ON alert_deliveries (leased_until, user_id);
CREATE INDEX alert_deliveries_finished ON alert_deliveries (status, last_attempt_at);
