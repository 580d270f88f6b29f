#pragma once

#include "store/Records.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::store {

/// Users, their provider identities and their game-platform links. Thread-safe.
class UserStore {
 public:
  virtual ~UserStore() = default;

  /// Creates a user (id is a fresh UUID v4) and returns it.
  virtual UserRecord createUser(const std::string& email, const std::string& display_name,
                                const std::string& avatar_url, std::int64_t now) = 0;
  virtual std::optional<UserRecord> findUser(const std::string& user_id) = 0;
  /// Matches by e-mail, case-insensitively.
  virtual std::optional<UserRecord> findUserByEmail(const std::string& email) = 0;
  virtual void updateProfile(const std::string& user_id, const std::string& display_name,
                             const std::string& avatar_url) = 0;

  /// Records or refreshes (provider, subject) → user.
  virtual void upsertIdentity(const IdentityRecord& identity) = 0;
  virtual std::optional<IdentityRecord> findIdentity(const std::string& provider,
                                                     const std::string& subject) = 0;
  virtual std::vector<IdentityRecord> identitiesOf(const std::string& user_id) = 0;

  /// What addGameLink did.
  enum class GameLinkResult {
    kLinked,          ///< a new link of this user
    kAlreadyLinked,   ///< this user had it already: nothing changed (linked_at kept)
    kOtherUser,       ///< another user holds the platform id: nothing changed
    kTooManyAccounts  ///< the user holds `max_links` links already: nothing changed
  };

  /// Adds a platform id to the user's links (docs/api.md §23.2: a user may link several,
  /// a platform id belongs to one user at most). `max_links` caps the user's links; the
  /// count and the insert are one transaction, so two concurrent links cannot pass it.
  virtual GameLinkResult addGameLink(const GameLinkRecord& link, std::size_t max_links) = 0;
  /// addGameLink without a cap: false only when another user holds the platform id.
  bool linkGameId(const GameLinkRecord& link) {
    const auto result = addGameLink(link, std::numeric_limits<std::size_t>::max());
    return result == GameLinkResult::kLinked || result == GameLinkResult::kAlreadyLinked;
  }
  /// The user's links, oldest first (linked_at, then platform id).
  virtual std::vector<GameLinkRecord> gameLinksOf(const std::string& user_id) = 0;
  /// The user's oldest link: the one `gameid` of GET /auth/me names.
  virtual std::optional<GameLinkRecord> gameLinkOf(const std::string& user_id) = 0;
  virtual std::optional<GameLinkRecord> gameLinkByPlatformId(const std::string& platform_id) = 0;
  /// Removes the user's link of `platform_id` and, in the same transaction, the
  /// account's holdings and import metadata (its departures and the user's cost bases
  /// stay); false, and nothing changed, when the user has no such link.
  virtual bool unlinkGameId(const std::string& user_id, const std::string& platform_id) = 0;
  /// Sets the label of the user's link of `platform_id`; the link as it now is, or nullopt
  /// when the user has no such link.
  virtual std::optional<GameLinkRecord> labelGameId(const std::string& user_id,
                                                    const std::string& platform_id,
                                                    const std::string& label) = 0;
};

}  // namespace skinpulse::store
