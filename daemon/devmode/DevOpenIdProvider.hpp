#pragma once

// DevOpenIdProvider: a minimal OpenID 2.0 provider in stateless ("dumb") mode for
// development mode. checkid_setup answers at once with a positive assertion for the one
// configured platform id (no password: it is a local development run), signed with
// HMAC-SHA256 under a key that lives only in this process; check_authentication verifies
// that signature once per response nonce (OpenID 2.0 §11.4.2). The daemon's own gameid
// relying party (plugins/identity/openid2) signs in against it exactly as against the
// real platform: the same redirects, checks and direct verification.

#include "skinpulse/sdk/types.hpp"

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_set>

namespace skinpulse::devmode {

inline constexpr const char* kOpenIdNamespace = "http://specs.openid.net/auth/2.0";

class DevOpenIdProvider {
 public:
  /// `endpoint`: this provider's URL (op_endpoint); `realm_base`: BASE_URL, under which
  /// every return_to must lie; `claimed_host`: the host of the claimed IDs; `key`: the
  /// signing key (at least 32 random bytes).
  DevOpenIdProvider(std::string endpoint, std::string realm_base, std::string claimed_host,
                    std::string player_id, std::string key);

  /// The positive assertion for a checkid_setup request (its decoded query): the URL the
  /// browser is sent to (return_to with the openid.* fields). Throws http::HttpError 400
  /// `invalid_parameter` for anything but a checkid_setup of OpenID 2.0 whose return_to
  /// lies under the realm (never an open redirect). `nonce` is appended to the time stamp
  /// of the response nonce (random text in use).
  std::string positiveAssertion(const sdk::Fields& query, std::int64_t now_seconds,
                                const std::string& nonce) const;

  /// The same for `player_id` rather than the configured one (the second development
  /// account; the caller chooses only among the ids it was configured with).
  std::string positiveAssertion(const sdk::Fields& query, std::int64_t now_seconds,
                                const std::string& nonce, const std::string& player_id) const;

  /// check_authentication (the decoded form body): true when every signed field verifies
  /// under the key and the response nonce was not verified before.
  bool verify(const sdk::Fields& form);

  /// The Key-Value Form answer to a check_authentication.
  static std::string verificationAnswer(bool valid);

 private:
  std::string signature(const sdk::Fields& fields, const std::string& signed_list) const;

  std::string endpoint_;
  std::string realm_base_;
  std::string claimed_host_;
  std::string player_id_;
  std::string key_;
  std::mutex mutex_;
  std::unordered_set<std::string> verified_nonces_;
  std::deque<std::string> nonce_order_;  ///< oldest first, to bound the set
};

}  // namespace skinpulse::devmode
