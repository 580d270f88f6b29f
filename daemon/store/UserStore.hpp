#pragma once

#include "store/Records.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::store {

/// Users, their provider identities and their game-platform link. Thread-safe.
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

  /// Links a platform id to a user. Returns false, changing nothing, when the platform id
  /// is already linked to another user. Re-linking the same pair refreshes linked_at.
  virtual bool linkGameId(const GameLinkRecord& link) = 0;
  virtual std::optional<GameLinkRecord> gameLinkOf(const std::string& user_id) = 0;
  virtual std::optional<GameLinkRecord> gameLinkByPlatformId(const std::string& platform_id) = 0;
};

}  // namespace skinpulse::store
