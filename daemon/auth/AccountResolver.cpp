#include "auth/AccountResolver.hpp"

#include "auth/PlatformId.hpp"
#include "common/Log.hpp"

#include <algorithm>

namespace skinpulse::auth {
namespace {

Resolution refused(const char* code) { return Resolution{"", code}; }

}  // namespace

Resolution AccountResolver::loginByEmail(const std::string& provider,
                                         const sdk::VerifiedIdentity& identity,
                                         std::int64_t now) const {
  if (!identity.email_verified || identity.email.empty() || identity.subject.empty()) {
    return refused("email_unverified");
  }
  auto user = users_.findUserByEmail(identity.email);
  if (!user) {
    user = users_.createUser(identity.email, identity.display_name, identity.avatar_url, now);
    log::main().info("new account {} from {}", user->id, provider);
  } else {
    users_.updateProfile(user->id,
                         identity.display_name.empty() ? user->display_name : identity.display_name,
                         identity.avatar_url.empty() ? user->avatar_url : identity.avatar_url);
  }
  users_.upsertIdentity(
      store::IdentityRecord{provider, identity.subject, user->id, identity.email, now});
  return Resolution{user->id, ""};
}

Resolution AccountResolver::loginByPlatformId(const std::string& provider,
                                              const sdk::VerifiedIdentity& identity,
                                              std::int64_t now) const {
  if (!isIndividualPlatformId(identity.subject)) return refused("invalid_claimed_id");
  std::string user_id;
  if (const auto link = users_.gameLinkByPlatformId(identity.subject)) {
    user_id = link->user_id;
    if (!identity.display_name.empty() || !identity.avatar_url.empty()) {
      const auto user = users_.findUser(user_id);
      users_.updateProfile(
          user_id,
          identity.display_name.empty() && user ? user->display_name : identity.display_name,
          identity.avatar_url.empty() && user ? user->avatar_url : identity.avatar_url);
    }
  } else {
    const auto user = users_.createUser("", identity.display_name, identity.avatar_url, now);
    if (!users_.linkGameId(store::GameLinkRecord{user.id, identity.subject, now})) {
      // Another login of the same id won the race; sign into that account instead.
      const auto winner = users_.gameLinkByPlatformId(identity.subject);
      if (!winner) return refused("verification_failed");
      user_id = winner->user_id;
    } else {
      user_id = user.id;
      log::main().info("new account {} from {}", user_id, provider);
    }
  }
  users_.upsertIdentity(store::IdentityRecord{provider, identity.subject, user_id, "", now});
  return Resolution{user_id, ""};
}

Resolution AccountResolver::linkPlatformId(const std::string& provider, const std::string& user_id,
                                           const sdk::VerifiedIdentity& identity,
                                           std::int64_t now) const {
  if (!isIndividualPlatformId(identity.subject)) return refused("invalid_claimed_id");
  using Result = store::UserStore::GameLinkResult;
  const auto result = users_.addGameLink(store::GameLinkRecord{user_id, identity.subject, now},
                                         static_cast<std::size_t>(std::max(max_game_accounts_, 1)));
  if (result == Result::kOtherUser) return refused("already_linked");
  if (result == Result::kTooManyAccounts) return refused("too_many_accounts");
  users_.upsertIdentity(store::IdentityRecord{provider, identity.subject, user_id, "", now});
  return Resolution{user_id, ""};
}

}  // namespace skinpulse::auth
