-- skinpulse schema 005, SQLite flavour (its twin is ../postgresql/006_currency_rates.sql).
--
-- Exchange rates (docs/api.md §14, docs/adr/0016-currency-rates.md): the newest rate each
-- rates instance reported for each currency, as an exact fraction: units of `currency`
-- per 1 USD = numerator / denominator. rate_time is the upstream's date of the rate,
-- fetched_at when the daemon received it (Unix seconds). Loaded whole at start.
CREATE TABLE currency_rates (
  currency TEXT NOT NULL,
  instance TEXT NOT NULL,
  numerator INTEGER NOT NULL CHECK (numerator > 0),
  denominator INTEGER NOT NULL CHECK (denominator > 0),
  rate_time INTEGER NOT NULL,
  fetched_at INTEGER NOT NULL,
  PRIMARY KEY (currency, instance)
);
