#pragma once

// Sender: one delivery attempt, a POST of a JSON body to a target URL under the rules of
// docs/api.md §13: the target's addresses checked at delivery time (TargetCheck) and the
// connection made to exactly those addresses, one total deadline (10 s) for the whole
// attempt — name resolution, connect, TLS, request and the whole answer, enforced by a
// net::DeadlineWatchdog that shuts the socket down when it passes, so a target that
// drips its answer cannot hold a worker longer — at most 64 KiB of the answer read, no
// redirects followed. The outcome says whether to retry.

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace skinpulse::net {
class DeadlineWatchdog;
}

namespace skinpulse::alerts {

struct SendOutcome {
  enum class Kind {
    kDelivered,  ///< 2xx
    kRetry,      ///< timeout, connection failure, 429, 5xx
    kFinal,      ///< any other status (redirects too), a refused or malformed target
  };
  Kind kind = Kind::kFinal;
  std::optional<int> status;
  std::string error;  ///< for the deliveries list and the log: never a secret or a URL
  /// For the operator's log only, never the deliveries list: why a target was refused
  /// (the host name, never the address it resolved to).
  std::string log_detail;
};

struct SenderOptions {
  bool allow_private_targets = false;
  std::chrono::milliseconds timeout{10000};
  std::size_t max_response_bytes = 64 * 1024;
  std::string ca_location = "/etc/ssl/certs";
};

class Sender {
 public:
  /// Starts the watchdog thread that enforces the deadline.
  explicit Sender(SenderOptions options);
  virtual ~Sender();
  Sender(const Sender&) = delete;
  Sender& operator=(const Sender&) = delete;

  /// The longest an attempt takes: the delivery lease is derived from it.
  std::chrono::milliseconds timeout() const { return options_.timeout; }

  /// POSTs `body` (application/json) with `headers` to `url`.
  virtual SendOutcome post(const std::string& url, const std::string& body,
                           const std::vector<std::pair<std::string, std::string>>& headers) const;

  /// How a status is judged: 2xx delivered; 429 and 5xx retried; the rest final.
  static SendOutcome::Kind classify(int status);

 private:
  SenderOptions options_;
  std::unique_ptr<net::DeadlineWatchdog> watchdog_;
};

}  // namespace skinpulse::alerts
