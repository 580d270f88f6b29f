#include "currency/RateBook.hpp"

namespace skinpulse::currency {
namespace {

bool replaces(const Rate& offered, const Rate& held) {
  if (offered.time != held.time) return offered.time > held.time;
  if (offered.instance != held.instance) return offered.instance < held.instance;
  return offered.numerator != held.numerator || offered.denominator != held.denominator;
}

}  // namespace

bool RateBook::offer(const Rate& rate) {
  if (rate.currency == "USD") return false;
  const auto valid = normaliseRate(rate);
  if (!valid) return false;
  std::lock_guard lock(mutex_);
  const auto held = rates_->find(valid->currency);
  if (held != rates_->end() && !replaces(*valid, held->second)) return false;
  auto next = std::make_shared<Rates>(*rates_);
  (*next)[valid->currency] = *valid;
  rates_ = std::move(next);
  return true;
}

std::size_t RateBook::offerAll(const std::vector<Rate>& rates) {
  std::size_t changed = 0;
  for (const auto& rate : rates) changed += offer(rate) ? 1 : 0;
  return changed;
}

std::optional<Rate> RateBook::rateOf(std::string_view code) const {
  const auto rates = snapshot();
  const auto it = rates->find(code);
  if (it == rates->end()) return std::nullopt;
  return it->second;
}

const RateBook& RateBook::none() {
  static const RateBook empty;
  return empty;
}

std::shared_ptr<const RateBook::Rates> RateBook::snapshot() const {
  std::lock_guard lock(mutex_);
  return rates_;
}

}  // namespace skinpulse::currency
