#include "store/SqlUserStore.hpp"

#include "common/Log.hpp"
#include "store/Errors.hpp"
#include "store/SqlHoldingStore.hpp"
#include "store/WriteTransaction.hpp"

#include <Poco/UUIDGenerator.h>

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::store {
namespace {

template <typename... Param>
std::vector<UserRecord> selectUsers(Poco::Data::Session& session, const std::string& rest,
                                    Param... params) {
  std::vector<std::string> id, email, display_name, avatar_url;
  std::vector<std::int64_t> created_at;
  Poco::Data::Statement statement(session);
  statement << "SELECT id, email, display_name, avatar_url, created_at FROM users " + rest,
      into(id), into(email), into(display_name), into(avatar_url), into(created_at);
  (statement.addBind(bind(params)), ...);
  statement.execute();
  std::vector<UserRecord> users;
  for (std::size_t i = 0; i < id.size(); ++i) {
    users.push_back({id[i], email[i], display_name[i], avatar_url[i], created_at[i]});
  }
  return users;
}

template <typename... Param>
std::vector<IdentityRecord> selectIdentities(Poco::Data::Session& session, const std::string& rest,
                                             Param... params) {
  std::vector<std::string> provider, subject, user_id, email;
  std::vector<std::int64_t> created_at;
  Poco::Data::Statement statement(session);
  statement << "SELECT provider, subject, user_id, email, created_at FROM identities " + rest,
      into(provider), into(subject), into(user_id), into(email), into(created_at);
  (statement.addBind(bind(params)), ...);
  statement.execute();
  std::vector<IdentityRecord> identities;
  for (std::size_t i = 0; i < provider.size(); ++i) {
    identities.push_back({provider[i], subject[i], user_id[i], email[i], created_at[i]});
  }
  return identities;
}

template <typename T>
std::optional<T> first(std::vector<T> rows) {
  if (rows.empty()) return std::nullopt;
  return std::move(rows.front());
}

}  // namespace

UserRecord SqlUserStore::createUser(const std::string& email, const std::string& display_name,
                                    const std::string& avatar_url, std::int64_t now_seconds) {
  UserRecord user{Poco::UUIDGenerator::defaultGenerator().createRandom().toString(), email,
                  display_name, avatar_url, now_seconds};
  WriteTransaction tx(pool_);
  tx.session() << tx.sql(
      "INSERT INTO users (id, email, display_name, avatar_url, created_at) "
      "VALUES (?, ?, ?, ?, ?)"),
      bind(user.id), bind(user.email), bind(user.display_name), bind(user.avatar_url),
      bind(user.created_at), now;
  tx.commit();
  return user;
}

std::optional<UserRecord> SqlUserStore::findUser(const std::string& user_id) {
  auto lease = pool_.read();
  return first(selectUsers(lease.session(), pool_.sql("WHERE id = ?"), user_id));
}

std::optional<UserRecord> SqlUserStore::findUserByEmail(const std::string& email) {
  // Accounts without an e-mail store ''; they must never match each other.
  if (email.empty()) return std::nullopt;
  auto lease = pool_.read();
  // lower() on both sides uses the users_email_lower index. The oldest account wins
  // should two ever differ only in case.
  return first(selectUsers(lease.session(),
                           pool_.sql("WHERE lower(email) = lower(?) ORDER BY created_at, id "
                                     "LIMIT 1"),
                           email));
}

void SqlUserStore::updateProfile(const std::string& user_id, const std::string& display_name,
                                 const std::string& avatar_url) {
  WriteTransaction tx(pool_);
  tx.session() << tx.sql("UPDATE users SET display_name = ?, avatar_url = ? WHERE id = ?"),
      bind(display_name), bind(avatar_url), bind(user_id), now;
  tx.commit();
}

void SqlUserStore::upsertIdentity(const IdentityRecord& identity) {
  WriteTransaction tx(pool_);
  tx.session() << tx.sql(
      "INSERT INTO identities (provider, subject, user_id, email, created_at) "
      "VALUES (?, ?, ?, ?, ?) ON CONFLICT (provider, subject) DO UPDATE "
      "SET user_id = excluded.user_id, email = excluded.email"),
      bind(identity.provider), bind(identity.subject), bind(identity.user_id), bind(identity.email),
      bind(identity.created_at), now;
  tx.commit();
}

std::optional<IdentityRecord> SqlUserStore::findIdentity(const std::string& provider,
                                                         const std::string& subject) {
  auto lease = pool_.read();
  return first(selectIdentities(lease.session(), pool_.sql("WHERE provider = ? AND subject = ?"),
                                provider, subject));
}

std::vector<IdentityRecord> SqlUserStore::identitiesOf(const std::string& user_id) {
  auto lease = pool_.read();
  return selectIdentities(lease.session(),
                          pool_.sql("WHERE user_id = ? ORDER BY provider, subject"), user_id);
}

namespace {

// The oldest link first; the platform id breaks a tie of two links in one second.
template <typename... Param>
std::vector<GameLinkRecord> selectGameLinks(Poco::Data::Session& session, const std::string& rest,
                                            Param... params) {
  std::vector<std::string> user_id, platform_id, label;
  std::vector<std::int64_t> linked_at;
  Poco::Data::Statement statement(session);
  statement << "SELECT user_id, platform_id, linked_at, label FROM game_links " + rest +
                   " ORDER BY linked_at, platform_id",
      into(user_id), into(platform_id), into(linked_at), into(label);
  (statement.addBind(bind(params)), ...);
  statement.execute();
  std::vector<GameLinkRecord> links;
  for (std::size_t i = 0; i < user_id.size(); ++i) {
    links.push_back({user_id[i], platform_id[i], linked_at[i], label[i]});
  }
  return links;
}

}  // namespace

UserStore::GameLinkResult SqlUserStore::addGameLink(const GameLinkRecord& link,
                                                    std::size_t max_links) {
  try {
    WriteTransaction tx(pool_);
    if (tx.backend() == Backend::kPostgres) {
      // Links of one user are counted and added one transaction at a time, so two
      // concurrent links cannot both pass the cap. (SQLite: BEGIN IMMEDIATE already
      // serialises every writer.)
      std::vector<std::string> locked;
      tx.session() << tx.sql("SELECT id FROM users WHERE id = ? FOR UPDATE"), into(locked),
          bind(link.user_id), now;
    }
    std::vector<std::string> owner;
    tx.session() << tx.sql("SELECT user_id FROM game_links WHERE platform_id = ?"), into(owner),
        bind(link.platform_id), now;
    if (!owner.empty()) {
      return owner.front() == link.user_id ? GameLinkResult::kAlreadyLinked
                                           : GameLinkResult::kOtherUser;
    }
    std::int64_t held = 0;
    tx.session() << tx.sql("SELECT COUNT(*) FROM game_links WHERE user_id = ?"), into(held),
        bind(link.user_id), now;
    if (static_cast<std::uint64_t>(held) >= max_links) return GameLinkResult::kTooManyAccounts;
    tx.session() << tx.sql(
        "INSERT INTO game_links (user_id, platform_id, linked_at, label) VALUES (?, ?, ?, ?)"),
        bind(link.user_id), bind(link.platform_id), bind(link.linked_at), bind(link.label), now;
    tx.commit();
    return GameLinkResult::kLinked;
  } catch (const std::exception& e) {
    // On PostgreSQL another link of the same id can commit between our check and our
    // insert; the unique constraint then refuses ours, which is one of the same answers.
    if (const auto owner = gameLinkByPlatformId(link.platform_id)) {
      log::main().debug("platform id link lost a race: {}", describe(e));
      return owner->user_id == link.user_id ? GameLinkResult::kAlreadyLinked
                                            : GameLinkResult::kOtherUser;
    }
    throw;
  }
}

std::vector<GameLinkRecord> SqlUserStore::gameLinksOf(const std::string& user_id) {
  auto lease = pool_.read();
  return selectGameLinks(lease.session(), pool_.sql("WHERE user_id = ?"), user_id);
}

std::optional<GameLinkRecord> SqlUserStore::gameLinkOf(const std::string& user_id) {
  return first(gameLinksOf(user_id));
}

std::optional<GameLinkRecord> SqlUserStore::gameLinkByPlatformId(const std::string& platform_id) {
  auto lease = pool_.read();
  return first(selectGameLinks(lease.session(), pool_.sql("WHERE platform_id = ?"), platform_id));
}

bool SqlUserStore::unlinkGameId(const std::string& user_id, const std::string& platform_id) {
  WriteTransaction tx(pool_);
  Poco::Data::Statement statement(tx.session());
  statement << tx.sql("DELETE FROM game_links WHERE user_id = ? AND platform_id = ?"),
      bind(user_id), bind(platform_id);
  const std::size_t removed = statement.execute();
  if (removed == 0) return false;  // rolled back: nothing else is touched
  // The account's holdings and import metadata go with its link, in this transaction:
  // no moment shows holdings of an account the user no longer has (docs/api.md §23.2).
  deleteAccountRows(tx, user_id, platform_id);
  tx.commit();
  return true;
}

std::optional<GameLinkRecord> SqlUserStore::labelGameId(const std::string& user_id,
                                                        const std::string& platform_id,
                                                        const std::string& label) {
  {
    WriteTransaction tx(pool_);
    Poco::Data::Statement statement(tx.session());
    statement << tx.sql("UPDATE game_links SET label = ? WHERE user_id = ? AND platform_id = ?"),
        bind(label), bind(user_id), bind(platform_id);
    const std::size_t changed = statement.execute();
    tx.commit();
    if (changed == 0) return std::nullopt;
  }
  const auto link = gameLinkByPlatformId(platform_id);
  if (!link || link->user_id != user_id) return std::nullopt;  // unlinked meanwhile
  return link;
}

}  // namespace skinpulse::store
