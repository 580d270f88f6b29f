#pragma once

// Sender: one delivery attempt, a POST of a JSON body to a target URL under the rules of
// docs/api.md §13: the target's addresses checked at delivery time (TargetCheck) and the
// connection made to exactly those addresses, 10 s for the whole exchange, at most
// 64 KiB of the answer read, no redirects followed. The outcome says whether to retry.

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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
};

struct SenderOptions {
  bool allow_private_targets = false;
  std::chrono::milliseconds timeout{10000};
  std::size_t max_response_bytes = 64 * 1024;
  std::string ca_location = "/etc/ssl/certs";
};

class Sender {
 public:
  explicit Sender(SenderOptions options);
  virtual ~Sender() = default;

  /// POSTs `body` (application/json) with `headers` to `url`.
  virtual SendOutcome post(const std::string& url, const std::string& body,
                           const std::vector<std::pair<std::string, std::string>>& headers) const;

  /// How a status is judged: 2xx delivered; 429 and 5xx retried; the rest final.
  static SendOutcome::Kind classify(int status);

 private:
  SenderOptions options_;
};

}  // namespace skinpulse::alerts
