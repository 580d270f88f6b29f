#include "rates/RatesPoller.hpp"

#include "common/Log.hpp"
#include "common/Time.hpp"

#include <algorithm>

namespace skinpulse::rates {
namespace {

constexpr std::int64_t kFirstRetrySeconds = 300;
constexpr std::int64_t kMaxRetryAfterSeconds = 3600;

}  // namespace

std::vector<currency::Rate> usableRates(const std::string& instance,
                                        const std::vector<sdk::CurrencyRate>& batch,
                                        std::vector<std::string>& skipped) {
  std::vector<currency::Rate> out;
  for (const auto& offered : batch) {
    std::string code = offered.currency;
    for (char& c : code) {
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    if (code == "USD") continue;  // the base: always 1
    auto rate = currency::normaliseRate(
        {code, offered.numerator, offered.denominator, offered.time, instance});
    if (!rate || offered.time <= 0) {
      if (skipped.size() < 8) skipped.push_back(code.substr(0, 8));
      continue;
    }
    out.push_back(std::move(*rate));
  }
  return out;
}

RatesPoller::RatesPoller(std::vector<Instance> instances, currency::RateBook& book,
                         store::RateStore* store, Clock clock)
    : instances_(std::move(instances)),
      book_(book),
      store_(store),
      clock_(clock ? std::move(clock) : Clock([] { return time::nowSeconds(); })),
      next_poll_(instances_.size(), 0),
      failures_(instances_.size(), 0) {
  for (const auto& instance : instances_) {
    status_.push_back(RatesStatus{instance.options.name, instance.options.plugin, {}, {}, {}, 0});
  }
}

RatesPoller::~RatesPoller() { stop(); }

void RatesPoller::loadStored() {
  if (store_ == nullptr) return;
  std::vector<currency::Rate> rates;
  for (const auto& row : store_->allRates()) {
    rates.push_back({row.currency, row.numerator, row.denominator, row.rate_time, row.instance});
  }
  const std::size_t kept = book_.offerAll(rates);
  if (kept > 0) log::main().info("{} stored exchange rate(s) loaded", kept);
}

void RatesPoller::start() {
  if (instances_.empty() || task_) return;
  task_ = std::make_unique<common::PeriodicTask>(
      "rates", std::chrono::milliseconds(0), std::chrono::milliseconds(1000), [this] { tick(); });
  task_->start();
}

void RatesPoller::stop() {
  if (task_) task_->stop();
  task_.reset();
}

void RatesPoller::tick() {
  for (std::size_t i = 0; i < instances_.size(); ++i) {
    bool due = false;
    {
      std::lock_guard lock(mutex_);
      due = clock_() >= next_poll_[i];
    }
    if (due) pollOnce(i);
  }
}

void RatesPoller::pollOnce(std::size_t index) {
  const Instance& instance = instances_[index];
  const std::string& name = instance.options.name;
  const std::int64_t started = clock_();
  sdk::RateBatch batch;
  try {
    batch = instance.source->fetchRates();
  } catch (const std::exception& e) {
    batch.status = sdk::Status(sdk::Status::Code::kInternal, e.what());
  } catch (...) {
    batch.status = sdk::Status(sdk::Status::Code::kInternal, "unknown exception in fetchRates()");
  }
  const std::int64_t finished = clock_();
  if (finished - started > instance.options.timeout_seconds) {
    log::main().warn("rates '{}': the poll took {} s (timeout_seconds {})", name,
                     finished - started, instance.options.timeout_seconds);
  }
  const std::int64_t interval = instance.options.interval_seconds;
  if (!batch.status.isOk()) {
    std::lock_guard lock(mutex_);
    const int failures = ++failures_[index];
    std::int64_t wait = std::min(interval, kFirstRetrySeconds << std::min(failures - 1, 16));
    if (batch.retry_after_seconds) {
      wait = std::clamp<std::int64_t>(*batch.retry_after_seconds, 1, kMaxRetryAfterSeconds);
    }
    next_poll_[index] = finished + wait;
    status_[index].last_poll = finished;
    status_[index].last_error = batch.status.message();
    log::main().warn("rates '{}': poll failed: {} (next try in {} s)", name, batch.status.message(),
                     wait);
    return;
  }
  std::vector<std::string> skipped;
  const auto rates = usableRates(name, batch.rates, skipped);
  if (!skipped.empty()) {
    std::string list;
    for (const auto& code : skipped) list += (list.empty() ? "" : ", ") + code;
    log::main().warn(
        "rates '{}': {} unusable rate(s) skipped (unknown code, zero or oversized "
        "fraction, or no time): {}",
        name, batch.rates.size() - rates.size(), list);
  }
  if (store_ != nullptr && !rates.empty()) {
    std::vector<store::RateRecord> rows;
    for (const auto& rate : rates) {
      rows.push_back(
          {rate.currency, rate.instance, rate.numerator, rate.denominator, rate.time, finished});
    }
    try {
      store_->storeRates(rows);
    } catch (const std::exception& e) {
      log::main().error("rates '{}': storing {} rate(s) failed: {}", name, rows.size(), e.what());
    }
  }
  const std::size_t changed = book_.offerAll(rates);
  log::main().info("rates '{}': {} rate(s) received, {} newer than the book's", name, rates.size(),
                   changed);
  std::lock_guard lock(mutex_);
  failures_[index] = 0;
  next_poll_[index] = finished + interval;
  status_[index].last_poll = finished;
  status_[index].last_success = finished;
  status_[index].last_error.clear();
  status_[index].rates = rates.size();
}

std::vector<RatesStatus> RatesPoller::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

}  // namespace skinpulse::rates
