#pragma once

// AccountResolver: turns a verified identity into a user account (docs/api.md §5).
//  - OAuth 2.0 (idp-a, idp-b): only a verified e-mail creates or matches a user; the
//    (provider, subject) identity is recorded, name and avatar refreshed.
//  - gameid login: the account linked to the platform id, or a new one linked to it.
//  - gameid link: adds the platform id to the signed-in user's accounts (docs/api.md
//    §23.2); an id owned by another account is refused (already_linked), one the user
//    has already is a success that changes nothing, one more than `max_game_accounts`
//    is refused (too_many_accounts).
// Platform ids outside the individual-account range are refused (invalid_claimed_id).

#include "skinpulse/sdk/identity.hpp"

#include "store/UserStore.hpp"

#include <cstdint>
#include <string>

namespace skinpulse::auth {

/// The user a login resolved to, or the auth_error code of the refusal.
struct Resolution {
  std::string user_id;     ///< set on success
  std::string error_code;  ///< set on refusal
};

class AccountResolver {
 public:
  /// The default cap of [gameid] max_accounts.
  static constexpr int kDefaultMaxGameAccounts = 5;

  explicit AccountResolver(store::UserStore& users, int max_game_accounts = kDefaultMaxGameAccounts)
      : users_(users), max_game_accounts_(max_game_accounts) {}

  Resolution loginByEmail(const std::string& provider, const sdk::VerifiedIdentity& identity,
                          std::int64_t now) const;
  Resolution loginByPlatformId(const std::string& provider, const sdk::VerifiedIdentity& identity,
                               std::int64_t now) const;
  Resolution linkPlatformId(const std::string& provider, const std::string& user_id,
                            const sdk::VerifiedIdentity& identity, std::int64_t now) const;

 private:
  store::UserStore& users_;
  int max_game_accounts_;
};

}  // namespace skinpulse::auth
