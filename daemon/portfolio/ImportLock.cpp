#include "portfolio/ImportLock.hpp"

#include "common/Log.hpp"

#include <algorithm>

namespace skinpulse::portfolio {

namespace {

constexpr const char* kRunning = "running:";
constexpr const char* kCooldown = "cooldown:";

bool startsWith(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

std::int64_t ceilSeconds(std::int64_t millis) { return (millis + 999) / 1000; }

}  // namespace

ImportLock::ImportLock(state::SharedStore& store, TokenSource tokens)
    : store_(store), tokens_(std::move(tokens)) {}

std::string importSubject(const std::string& user_id, const std::string& account) {
  return user_id + ":" + account;
}

std::string ImportLock::keyOf(const std::string& subject) { return "portfolio:import:" + subject; }

std::string ImportLock::keyOf(const std::string& user_id, const std::string& account) {
  return keyOf(importSubject(user_id, account));
}

ImportLock::Attempt ImportLock::acquire(const std::string& subject, std::chrono::seconds hold,
                                        std::chrono::seconds cooldown) {
  const std::string key = keyOf(subject);
  Attempt attempt;
  const std::string token = tokens_();
  if (store_.setIfAbsent(key, kRunning + token, hold)) {
    attempt.token = token;
    return attempt;
  }
  // Held: by a running import or by the cooldown. Either read may find the key gone
  // (it just expired or was released); the caller then answers 429 with a short wait
  // rather than looping here.
  const auto value = store_.get(key);
  if (value && startsWith(*value, kCooldown)) {
    const auto left = store_.ttlLeft(key);
    attempt.retry_after_seconds = std::max<std::int64_t>(1, left ? ceilSeconds(*left) : 1);
  } else {
    attempt.retry_after_seconds = std::max<std::int64_t>(1, cooldown.count());
  }
  return attempt;
}

void ImportLock::finish(const std::string& subject, const std::string& token,
                        std::chrono::seconds cooldown, std::int64_t now) {
  const std::string key = keyOf(subject);
  if (cooldown.count() <= 0) {
    release(subject, token);
    return;
  }
  // The holdings are written: the cooldown starts even if the lock expired meanwhile.
  store_.set(key, kCooldown + std::to_string(now + cooldown.count()), cooldown);
}

void ImportLock::release(const std::string& subject, const std::string& token) noexcept {
  const std::string key = keyOf(subject);
  try {
    // Not one atomic step, but the lock outlives any import (hold = the fetch's worst
    // case), so the value read is ours unless the lock already expired.
    if (store_.get(key) == std::optional<std::string>(kRunning + token)) store_.remove(key);
  } catch (const std::exception& e) {
    log::main().warn("portfolio: could not release the import lock of an account: {}", e.what());
  }
}

}  // namespace skinpulse::portfolio
