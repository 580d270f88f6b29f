-- skinpulse schema 006, PostgreSQL flavour (its twin is ../sqlite/005_currency_rates.sql).
--
-- Exchange rates (docs/api.md §14, docs/adr/0016-currency-rates.md): the newest rate each
-- rates instance reported for each currency, as an exact fraction: units of `currency`
-- per 1 USD = numerator / denominator. rate_time is the upstream's date of the rate,
-- fetched_at when the daemon received it (Unix seconds). Loaded whole at start.
CREATE TABLE currency_rates (
  currency TEXT NOT NULL,
  instance TEXT NOT NULL,
  numerator BIGINT NOT NULL CHECK (numerator > 0),
  denominator BIGINT NOT NULL CHECK (denominator > 0),
  rate_time BIGINT NOT NULL,
  fetched_at BIGINT NOT NULL,
  PRIMARY KEY (currency, instance)
);
