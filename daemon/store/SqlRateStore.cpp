#include "store/SqlRateStore.hpp"

#include "store/WriteTransaction.hpp"

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::store {

void SqlRateStore::storeRates(const std::vector<RateRecord>& rates) {
  if (rates.empty()) return;
  WriteTransaction tx(pool_);
  for (const auto& rate : rates) {
    // Poco binds by reference: copies of the fields it may not modify.
    std::string currency = rate.currency, instance = rate.instance;
    std::int64_t numerator = rate.numerator, denominator = rate.denominator;
    std::int64_t rate_time = rate.rate_time, fetched_at = rate.fetched_at;
    tx.session() << tx.sql(
        "INSERT INTO currency_rates "
        "(currency, instance, numerator, denominator, rate_time, fetched_at) "
        "VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (currency, instance) DO UPDATE SET numerator = excluded.numerator, "
        "denominator = excluded.denominator, rate_time = excluded.rate_time, "
        "fetched_at = excluded.fetched_at "
        "WHERE excluded.rate_time >= currency_rates.rate_time"),
        bind(currency), bind(instance), bind(numerator), bind(denominator), bind(rate_time),
        bind(fetched_at), now;
  }
  tx.commit();
}

std::vector<RateRecord> SqlRateStore::allRates() {
  std::vector<std::string> currency, instance;
  std::vector<std::int64_t> numerator, denominator, rate_time, fetched_at;
  auto lease = pool_.read();
  lease.session() << pool_.sql(
      "SELECT currency, instance, numerator, denominator, rate_time, fetched_at "
      "FROM currency_rates ORDER BY currency, instance"),
      into(currency), into(instance), into(numerator), into(denominator), into(rate_time),
      into(fetched_at), now;
  std::vector<RateRecord> out;
  out.reserve(currency.size());
  for (std::size_t i = 0; i < currency.size(); ++i) {
    out.push_back(
        {currency[i], instance[i], numerator[i], denominator[i], rate_time[i], fetched_at[i]});
  }
  return out;
}

}  // namespace skinpulse::store
