#pragma once

// ImportLock: the import cooldown of docs/api.md §6, kept in the shared store so that it
// holds across daemon restarts and across every instance sharing Redis. Its subject is
// one linked account of one user (importSubject(): docs/api.md §23.2, each account has
// its own cooldown); the lock itself only knows the subject string.
//
// One key per subject, `portfolio:import:<subject>`, in one of two states:
//   "running:<token>"   an import is in progress; TTL = the longest an import can take
//   "cooldown:<until>"  a successful import finished; TTL = IMPORT_COOLDOWN_SECONDS
// Acquiring is one atomic set-if-absent, so of several concurrent imports (on any
// instance) exactly one runs. Success overwrites the key with the cooldown; failure
// deletes it, so a failed import never costs the user the cooldown.
//
// Fail closed: every operation throws state::StoreUnavailable when the store cannot be
// reached; the caller refuses the import (503) instead of running it unguarded.

#include "state/SharedStore.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace skinpulse::portfolio {

/// The subject of the import lock and throttle for `account` (a platform id) of
/// `user_id`: "<user_id>:<account>".
std::string importSubject(const std::string& user_id, const std::string& account);

class ImportLock {
 public:
  /// `token` makes each acquisition distinguishable (a random string per attempt).
  using TokenSource = std::function<std::string()>;

  ImportLock(state::SharedStore& store, TokenSource tokens);

  struct Attempt {
    /// Set when this call took the lock: pass it to finish() or release().
    std::optional<std::string> token;
    /// When refused: seconds until a retry can be admitted (>= 1). For a running import
    /// this is the cooldown it will start if it succeeds.
    std::int64_t retry_after_seconds = 0;
  };

  /// Takes the lock for at most `hold` (the longest an import may take) unless an import
  /// is running or the cooldown is active.
  Attempt acquire(const std::string& subject, std::chrono::seconds hold,
                  std::chrono::seconds cooldown);

  /// The import succeeded: the lock becomes the cooldown, `cooldown` long (0: none).
  void finish(const std::string& subject, const std::string& token, std::chrono::seconds cooldown,
              std::int64_t now);

  /// The import failed: frees the lock if it is still this attempt's, so the user may
  /// retry at once. Never throws (a lock it cannot delete expires after `hold`).
  void release(const std::string& subject, const std::string& token) noexcept;

  static std::string keyOf(const std::string& subject);
  /// The key of one account's lock: keyOf(importSubject(user_id, account)).
  static std::string keyOf(const std::string& user_id, const std::string& account);

 private:
  state::SharedStore& store_;
  TokenSource tokens_;
};

}  // namespace skinpulse::portfolio
