#include "FixedRates.hpp"

#include <stdexcept>
#include <string>

namespace skinpulse::plugins::fixed {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

}  // namespace

std::vector<sdk::CurrencyRate> parseFixedRates(std::string_view text) {
  std::vector<sdk::CurrencyRate> out;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const std::string_view pair = trim(text.substr(begin, comma - begin));
    begin = comma + 1;
    if (pair.empty() && comma == text.size() && !out.empty()) break;  // a trailing comma
    const std::size_t colon = pair.find(':');
    const std::string shown(pair.substr(0, 40));
    if (colon == std::string_view::npos) {
      throw std::invalid_argument("rates: '" + shown + "' is not CODE:RATE (e.g. EUR:0.95)");
    }
    const std::string_view code = trim(pair.substr(0, colon));
    const std::string_view value = trim(pair.substr(colon + 1));
    bool letters = code.size() == 3;
    for (char c : code) letters = letters && c >= 'A' && c <= 'Z';
    if (!letters) {
      throw std::invalid_argument("rates: '" + shown +
                                  "': the code must be three upper-case letters (ISO 4217)");
    }
    if (code == "USD") {
      throw std::invalid_argument("rates: USD is the base (1 per USD), leave it out");
    }
    const auto fraction = sdk::parseDecimalFraction(value);
    if (!fraction) {
      throw std::invalid_argument("rates: '" + shown +
                                  "': the rate must be a positive decimal such as 0.95");
    }
    for (const auto& seen : out) {
      if (seen.currency == code) {
        throw std::invalid_argument("rates: " + std::string(code) + " is given twice");
      }
    }
    sdk::CurrencyRate rate;
    rate.currency = std::string(code);
    rate.numerator = fraction->numerator;
    rate.denominator = fraction->denominator;
    out.push_back(rate);
  }
  if (out.empty()) throw std::invalid_argument("rates: empty (e.g. rates = EUR:0.95, JPY:151.2)");
  return out;
}

FixedRates::FixedRates(sdk::Host& host) {
  const auto text = host.config().get("rates");
  if (!text) throw std::invalid_argument("rates: missing (e.g. rates = EUR:0.95, JPY:151.2)");
  rates_ = parseFixedRates(*text);
  const std::int64_t started = host.clock().nowUnixSeconds();
  for (auto& rate : rates_) rate.time = started;
}

sdk::RateBatch FixedRates::fetchRates() {
  sdk::RateBatch batch;
  batch.rates = rates_;
  return batch;
}

}  // namespace skinpulse::plugins::fixed
