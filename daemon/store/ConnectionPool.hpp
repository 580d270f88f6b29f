#pragma once

#include "store/DatabaseUrl.hpp"

#include <Poco/Data/Session.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::store {

/// A bounded set of sessions to one database. HTTP threads read concurrently, each on a
/// session of its own; a caller that finds every session busy waits for one instead of
/// failing (Poco's SessionPool throws when exhausted). With `serialise_writes`, write
/// leases also take one process-wide lock: SQLite admits one writer at a time, and
/// queueing in-process is cheaper than spinning in its busy handler.
class ConnectionPool {
 public:
  /// Opens and configures one new session; may throw.
  using Opener = std::function<Poco::Data::Session()>;

  ConnectionPool(Backend backend, Opener opener, std::size_t max_sessions, bool serialise_writes);
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  /// A session borrowed from the pool, returned when the lease ends.
  class Lease {
   public:
    Lease(Lease&& other) noexcept;
    Lease& operator=(Lease&&) = delete;
    ~Lease();

    Poco::Data::Session& session() { return *session_; }
    /// The session is in an unknown state (e.g. a failed ROLLBACK): close it instead of
    /// handing it to the next caller.
    void discard() { discard_ = true; }

   private:
    friend class ConnectionPool;
    Lease(ConnectionPool* pool, std::unique_ptr<Poco::Data::Session> session,
          std::unique_lock<std::mutex> write_lock, bool write);

    ConnectionPool* pool_;
    std::unique_ptr<Poco::Data::Session> session_;
    std::unique_lock<std::mutex> write_lock_;
    bool discard_ = false;
    // For skinpulse_store_*: how long the session was held, and whether an exception
    // left the lease's scope (the operation failed).
    bool write_ = false;
    std::chrono::steady_clock::time_point started_;
    int uncaught_ = 0;
  };

  Lease read();
  Lease write();

  Backend backend() const { return backend_; }
  /// `sql` in this backend's placeholder syntax.
  std::string sql(std::string_view text) const;

 private:
  std::unique_ptr<Poco::Data::Session> acquire();
  void release(std::unique_ptr<Poco::Data::Session> session, bool discard);

  const Backend backend_;
  const Opener opener_;
  const std::size_t max_sessions_;
  const bool serialise_writes_;

  std::mutex write_mutex_;
  std::mutex mutex_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<Poco::Data::Session>> idle_;
  std::size_t open_ = 0;
};

}  // namespace skinpulse::store
