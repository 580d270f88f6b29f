#include "store/ConnectionPool.hpp"

#include "common/Log.hpp"
#include "store/Errors.hpp"
#include "store/Sql.hpp"
#include "telemetry/DaemonMetrics.hpp"

#include <utility>

namespace skinpulse::store {

ConnectionPool::ConnectionPool(Backend backend, Opener opener, std::size_t max_sessions,
                               bool serialise_writes)
    : backend_(backend),
      opener_(std::move(opener)),
      max_sessions_(max_sessions == 0 ? 1 : max_sessions),
      serialise_writes_(serialise_writes) {}

ConnectionPool::Lease::Lease(ConnectionPool* pool, std::unique_ptr<Poco::Data::Session> session,
                             std::unique_lock<std::mutex> write_lock, bool write)
    : pool_(pool),
      session_(std::move(session)),
      write_lock_(std::move(write_lock)),
      write_(write),
      started_(std::chrono::steady_clock::now()),
      uncaught_(std::uncaught_exceptions()) {}

ConnectionPool::Lease::Lease(Lease&& other) noexcept
    : pool_(std::exchange(other.pool_, nullptr)),
      session_(std::move(other.session_)),
      write_lock_(std::move(other.write_lock_)),
      discard_(other.discard_),
      write_(other.write_),
      started_(other.started_),
      uncaught_(other.uncaught_) {}

ConnectionPool::Lease::~Lease() {
  if (pool_ == nullptr) return;  // moved from
  const std::string_view mode = write_ ? "write" : "read";
  auto& metrics = telemetry::metrics();
  metrics.store_operation_duration.labels({mode}).observe(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count());
  if (discard_ || std::uncaught_exceptions() > uncaught_) metrics.store_errors.labels({mode}).inc();
  if (session_) pool_->release(std::move(session_), discard_);
  // write_lock_ unlocks after the session is back, so the next writer finds it idle.
}

ConnectionPool::Lease ConnectionPool::read() {
  try {
    return Lease(this, acquire(), {}, false);
  } catch (...) {
    telemetry::metrics().store_errors.labels({"read"}).inc();  // no session to be had
    throw;
  }
}

ConnectionPool::Lease ConnectionPool::write() {
  // The write lock is taken before a session: a writer never holds a session while it
  // queues behind another writer, so readers keep the whole pool.
  std::unique_lock<std::mutex> lock;
  if (serialise_writes_) lock = std::unique_lock<std::mutex>(write_mutex_);
  try {
    return Lease(this, acquire(), std::move(lock), true);
  } catch (...) {
    telemetry::metrics().store_errors.labels({"write"}).inc();
    throw;
  }
}

std::string ConnectionPool::sql(std::string_view text) const {
  return adaptPlaceholders(backend_, text);
}

std::unique_ptr<Poco::Data::Session> ConnectionPool::acquire() {
  std::unique_lock<std::mutex> lock(mutex_);
  available_.wait(lock, [this] { return !idle_.empty() || open_ < max_sessions_; });
  while (!idle_.empty()) {
    auto session = std::move(idle_.back());
    idle_.pop_back();
    // A PostgreSQL connection whose server went away reports it here; open a new one.
    if (session->isConnected()) return session;
    --open_;
  }
  ++open_;
  lock.unlock();
  try {
    return std::make_unique<Poco::Data::Session>(opener_());
  } catch (...) {
    lock.lock();
    --open_;
    available_.notify_one();
    throw;
  }
}

void ConnectionPool::release(std::unique_ptr<Poco::Data::Session> session, bool discard) {
  if (discard) {
    try {
      session->close();
    } catch (const std::exception& e) {
      log::main().debug("closing a discarded database session: {}", describe(e));
    }
    session.reset();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (session) {
    idle_.push_back(std::move(session));
  } else {
    --open_;
  }
  available_.notify_one();
}

}  // namespace skinpulse::store
