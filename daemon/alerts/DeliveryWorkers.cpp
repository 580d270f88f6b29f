#include "alerts/DeliveryWorkers.hpp"

#include "alerts/RuleJson.hpp"
#include "alerts/Signature.hpp"
#include "common/Log.hpp"
#include "common/RandomToken.hpp"
#include "telemetry/DaemonMetrics.hpp"

namespace skinpulse::alerts {
namespace {

// An error text with every occurrence of `secret` replaced: the Telegram URL carries the
// bot token in its path, and a library may quote it.
std::string scrub(std::string text, const std::string& secret) {
  if (secret.empty()) return text;
  for (auto pos = text.find(secret); pos != std::string::npos; pos = text.find(secret, pos)) {
    text.replace(pos, secret.size(), "<redacted>");
  }
  return text;
}

}  // namespace

std::int64_t leaseSeconds(std::chrono::milliseconds timeout) {
  const auto whole = std::chrono::ceil<std::chrono::seconds>(timeout).count();
  return whole + kLeaseMarginSeconds;
}

int workersPerUser(int workers, int configured) {
  if (configured > 0) return std::min(configured, std::max(workers, 1));
  return std::max(1, (workers + 1) / 2);
}

std::int64_t backoffSeconds(std::int64_t base, std::int64_t attempts) {
  std::int64_t delay = base;
  for (std::int64_t i = 1; i < attempts && delay < kMaxBackoffSeconds; ++i) delay *= 2;
  return std::min(delay, kMaxBackoffSeconds);
}

DeliveryWorkers::DeliveryWorkers(store::AlertStore& store, const Sender& sender,
                                 DeliveryOptions options, WsSink ws,
                                 std::function<std::int64_t()> now)
    : store_(store),
      sender_(sender),
      options_(std::move(options)),
      ws_(std::move(ws)),
      now_(std::move(now)) {}

DeliveryWorkers::~DeliveryWorkers() { stop(); }

void DeliveryWorkers::start() {
  if (running_.exchange(true)) return;
  for (int i = 0; i < options_.workers; ++i) threads_.emplace_back([this] { run(); });
}

void DeliveryWorkers::stop() {
  if (!running_.exchange(false)) return;
  wake();
  for (auto& thread : threads_) thread.join();
  threads_.clear();
}

void DeliveryWorkers::wake() {
  {
    std::lock_guard lock(mutex_);
    ++wakes_;
  }
  wakeup_.notify_all();
}

void DeliveryWorkers::run() {
  while (running_) {
    std::uint64_t seen;
    {
      std::lock_guard lock(mutex_);
      seen = wakes_;
    }
    bool sent = false;
    try {
      pruneWhenDue();
      sent = deliverOne();
    } catch (const std::exception& e) {
      log::main().warn("alerts: the outbox could not be read: {}", e.what());
    }
    if (sent) continue;
    // Nothing due: poll again in a second (a retry coming due, another instance's rows),
    // or at once when a cycle adds deliveries.
    std::unique_lock lock(mutex_);
    wakeup_.wait_for(lock, std::chrono::seconds(1), [&] { return !running_ || wakes_ != seen; });
  }
}

bool DeliveryWorkers::deliverOne() {
  const std::int64_t now = now_();
  store::DeliveryClaim claim;
  claim.now = now;
  claim.lease_until = now + leaseSeconds(sender_.timeout());
  claim.token = common::randomToken(16);
  claim.max_per_user = workersPerUser(options_.workers, options_.max_workers_per_user);
  const auto delivery = store_.claimDue(claim);
  if (!delivery) return false;
  attempt(*delivery);
  return true;
}

std::size_t DeliveryWorkers::pruneFinished() {
  if (options_.retention_days <= 0) return 0;
  const std::int64_t cutoff = now_() - options_.retention_days * 86400;
  const std::size_t pruned = store_.pruneDeliveries(cutoff);
  if (pruned > 0) {
    log::main().info("alerts: pruned {} finished deliveries older than {} days", pruned,
                     options_.retention_days);
  }
  return pruned;
}

void DeliveryWorkers::pruneWhenDue() {
  if (options_.retention_days <= 0) return;
  const std::int64_t now = now_();
  std::int64_t due = next_prune_at_.load();
  // One worker wins the exchange and prunes; the others go on delivering.
  if (now < due || !next_prune_at_.compare_exchange_strong(due, now + kPruneIntervalSeconds)) {
    return;
  }
  pruneFinished();
}

void DeliveryWorkers::finish(const store::AlertDeliveryRecord& delivery, const std::string& status,
                             std::int64_t next, std::optional<std::int64_t> code,
                             const std::string& error) {
  if (!store_.finishAttempt(delivery.id, delivery.lease_token, status, next, code, error)) {
    // The lease ran out before the outcome was written and another attempt (or a rule
    // deletion) took the row: that attempt's record stands.
    log::main().warn(
        "alerts: delivery {} attempt {}: the lease ended before the outcome "
        "({}) was recorded; left to the newer attempt",
        delivery.id, delivery.attempts, status);
  }
}

void DeliveryWorkers::attempt(const store::AlertDeliveryRecord& delivery) {
  Channel channel;
  try {
    channel = storedChannels("[" + delivery.channel + "]").front();
  } catch (const std::exception& e) {
    finish(delivery, "failed", now_(), std::nullopt, "unreadable channel");
    log::main().error("alerts: delivery {} has an unreadable channel: {}", delivery.id, e.what());
    return;
  }

  SendOutcome outcome;
  std::string secret;
  switch (channel.type) {
    case ChannelType::kWebhook: {
      secret = channel.secret;
      const std::vector<std::pair<std::string, std::string>> headers = {
          {"X-Skinpulse-Signature", signatureHeader(channel.secret, now_(), delivery.body)},
          {"X-Skinpulse-Delivery", delivery.id}};
      outcome = sender_.post(channel.url, delivery.body, headers);
      break;
    }
    case ChannelType::kDiscord:
      secret = channel.url.substr(channel.url.rfind('/') + 1);
      outcome = sender_.post(channel.url, delivery.body, {});
      break;
    case ChannelType::kTelegram:
      secret = channel.bot_token;
      outcome =
          sender_.post(options_.telegram_api_url + "/bot" + channel.bot_token + "/sendMessage",
                       delivery.body, {});
      break;
    case ChannelType::kWs: {
      const std::size_t taken = ws_ ? ws_(delivery.user_id, delivery.body) : 0;
      outcome = taken > 0 ? SendOutcome{SendOutcome::Kind::kDelivered, std::nullopt, "", ""}
                          : SendOutcome{SendOutcome::Kind::kFinal, std::nullopt,
                                        "no signed-in WebSocket connection of the user", ""};
      break;
    }
  }
  outcome.error = scrub(std::move(outcome.error), secret);
  outcome.log_detail = scrub(std::move(outcome.log_detail), secret);

  const std::int64_t now = now_();
  std::string status = "failed";
  std::int64_t next = now;
  if (outcome.kind == SendOutcome::Kind::kDelivered) {
    status = "delivered";
  } else if (outcome.kind == SendOutcome::Kind::kRetry && delivery.attempts < kMaxAttempts) {
    status = "pending";
    next = now + backoffSeconds(options_.retry_base_seconds, delivery.attempts);
  }
  std::optional<std::int64_t> code;
  if (outcome.status) code = *outcome.status;
  finish(delivery, status, next, code, outcome.error);
  telemetry::metrics()
      .alert_deliveries.labels({delivery.channel_type, status == "pending" ? "retry" : status})
      .inc();
  // Ids and outcomes only: URLs and bodies may carry secrets.
  if (status == "delivered") {
    log::main().info("alerts: delivery {} (rule {}, {}) delivered, attempt {}", delivery.id,
                     delivery.rule_id, delivery.channel_type, delivery.attempts);
  } else {
    log::main().warn("alerts: delivery {} (rule {}, {}) attempt {}: {}{}{}; {}", delivery.id,
                     delivery.rule_id, delivery.channel_type, delivery.attempts, outcome.error,
                     outcome.log_detail.empty() ? "" : " — ", outcome.log_detail,
                     status == "pending" ? "retrying" : "given up");
  }
}

}  // namespace skinpulse::alerts
