#pragma once

#include "store/ConnectionPool.hpp"
#include "store/UserStore.hpp"

namespace skinpulse::store {

/// UserStore on SQLite or PostgreSQL.
class SqlUserStore final : public UserStore {
 public:
  explicit SqlUserStore(ConnectionPool& pool) : pool_(pool) {}

  UserRecord createUser(const std::string& email, const std::string& display_name,
                        const std::string& avatar_url, std::int64_t now) override;
  std::optional<UserRecord> findUser(const std::string& user_id) override;
  std::optional<UserRecord> findUserByEmail(const std::string& email) override;
  void updateProfile(const std::string& user_id, const std::string& display_name,
                     const std::string& avatar_url) override;

  void upsertIdentity(const IdentityRecord& identity) override;
  std::optional<IdentityRecord> findIdentity(const std::string& provider,
                                             const std::string& subject) override;
  std::vector<IdentityRecord> identitiesOf(const std::string& user_id) override;

  GameLinkResult addGameLink(const GameLinkRecord& link, std::size_t max_links) override;
  std::vector<GameLinkRecord> gameLinksOf(const std::string& user_id) override;
  std::optional<GameLinkRecord> gameLinkOf(const std::string& user_id) override;
  std::optional<GameLinkRecord> gameLinkByPlatformId(const std::string& platform_id) override;
  bool unlinkGameId(const std::string& user_id, const std::string& platform_id) override;
  std::optional<GameLinkRecord> labelGameId(const std::string& user_id,
                                            const std::string& platform_id,
                                            const std::string& label) override;

 private:
  ConnectionPool& pool_;
};

}  // namespace skinpulse::store
