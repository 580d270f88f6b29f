#include "events/RedisEventBus.hpp"

#include "common/Log.hpp"
#include "events/BatchCodec.hpp"
#include "events/InProcessEventBus.hpp"
#include "redis/RedisClient.hpp"

#include <Poco/Exception.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/Redis/Array.h>
#include <Poco/Redis/Client.h>
#include <Poco/Redis/Exception.h>
#include <Poco/Redis/RedisStream.h>
#include <Poco/Redis/Type.h>

#include <random>

namespace skinpulse::events {
namespace {

// A publisher that cannot keep up (Redis slow or down) keeps only the newest batches:
// two cycles' worth of prices and volatility.
constexpr std::size_t kMaxOutbox = 4;
// Session ends are rare (a logout, a login); a backlog this long means Redis is gone and
// the sockets' own expiry is the backstop.
constexpr std::size_t kMaxEndedOutbox = 4096;
const Poco::Timespan kConnectTimeout(1, 0);
const Poco::Timespan kIoTimeout(2, 0);
// The publisher's connection: the same timeouts; no SELECT, pub/sub channels are global.
const redis::ConnectOptions kConnect{1000, 2000, "", false};
const Poco::Timespan kStopCheck(0, 200000);

std::string randomOrigin() {
  std::random_device device;
  std::uniform_int_distribution<unsigned> digit(0, 15);
  std::string origin;
  for (int i = 0; i < 16; ++i) origin += "0123456789abcdef"[digit(device)];
  return origin;
}

}  // namespace

RedisEventBus::RedisEventBus(redis::RedisUrl address, std::string channel)
    : address_(std::move(address)),
      channel_(std::move(channel)),
      sessions_channel_(channel_ + ":sessions"),
      origin_(randomOrigin()) {}

RedisEventBus::~RedisEventBus() { stop(); }

void RedisEventBus::subscribe(BatchHandler handler) { handlers_.push_back(std::move(handler)); }

void RedisEventBus::subscribeSessionEnds(SessionEndHandler handler) {
  session_handlers_.push_back(std::move(handler));
}

void RedisEventBus::publishSessionEnd(const std::string& session_key) {
  deliverToAll(session_handlers_, session_key);
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    if (ended_outbox_.size() == kMaxEndedOutbox) {
      log::main().warn("live updates: redis publisher is behind; dropping a session end");
      ended_outbox_.pop_front();
    }
    ended_outbox_.push_back(session_key);
  }
  wake_.notify_all();
}

void RedisEventBus::start() {
  publisher_ = std::thread([this] { publishLoop(); });
  receiver_ = std::thread([this] { receiveLoop(); });
}

void RedisEventBus::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (publisher_.joinable()) publisher_.join();
  if (receiver_.joinable()) receiver_.join();
}

void RedisEventBus::publish(const UpdateBatchPtr& batch) {
  deliverToAll(handlers_, batch);
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    if (outbox_.size() == kMaxOutbox) {
      log::main().warn("live updates: redis publisher is behind; dropping a {} batch",
                       outbox_.front()->kind());
      outbox_.pop_front();
    }
    outbox_.push_back(batch);
  }
  wake_.notify_all();
}

bool RedisEventBus::pause(int seconds) {
  std::unique_lock lock(mutex_);
  return !wake_.wait_for(lock, std::chrono::seconds(seconds), [this] { return stopping_; });
}

void RedisEventBus::publishLoop() {
  std::unique_ptr<Poco::Redis::Client> client;
  bool failing = false;
  auto failed = [&](const std::string& detail) {
    if (!failing) {
      log::main().warn("live updates: cannot publish to redis {}:{}: {}", address_.host,
                       address_.port, detail);
    }
    failing = true;
    try {
      if (client) client->disconnect();
    } catch (const Poco::Exception&) {
    }
    client.reset();
  };
  for (;;) {
    UpdateBatchPtr batch;
    std::string ended;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !outbox_.empty() || !ended_outbox_.empty(); });
      if (stopping_) return;
      // A session end first: it closes a signed-in socket, a batch only refreshes prices.
      if (!ended_outbox_.empty()) {
        ended = std::move(ended_outbox_.front());
        ended_outbox_.pop_front();
      } else {
        batch = std::move(outbox_.front());
        outbox_.pop_front();
      }
    }
    Poco::Redis::Array command;
    if (batch) {
      command << "PUBLISH" << channel_ << encodeBatch(origin_, *batch);
    } else {
      command << "PUBLISH" << sessions_channel_ << origin_ + " " + ended;
    }
    try {
      if (!client || !client->isConnected()) client = redis::connect(address_, kConnect);
      client->execute<Poco::Int64>(command);
      if (failing) log::main().info("live updates: publishing to redis again");
      failing = false;
    } catch (const Poco::Exception& error) {
      failed(error.displayText());
    } catch (const redis::ErrorReply& error) {  // AUTH refused
      failed(error.what());
    }
  }
}

void RedisEventBus::receiveLoop() {
  bool failing = false;
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    try {
      receiveOnConnection();
    } catch (const Poco::Exception& error) {
      if (!failing) {
        log::main().warn("live updates: redis subscription to {}:{} lost: {}", address_.host,
                         address_.port, error.displayText());
      }
      failing = true;
    }
    if (subscribed_.exchange(false)) failing = false;
    if (!pause(1)) return;
  }
}

// One subscribed connection, read until it fails or the bus stops. The socket is our
// own (Poco's Client hides its socket) so the reader can wait in poll() with a short
// timeout and notice stop() promptly, then parse each reply with Poco::Redis's types.
void RedisEventBus::receiveOnConnection() {
  Poco::Net::StreamSocket socket;
  socket.connect(Poco::Net::SocketAddress(address_.host, static_cast<Poco::UInt16>(address_.port)),
                 kConnectTimeout);
  socket.setReceiveTimeout(kIoTimeout);
  socket.setSendTimeout(kIoTimeout);
  Poco::Redis::RedisOutputStream out(socket);
  Poco::Redis::RedisInputStream in(socket);
  if (!address_.password.empty()) {
    out << redis::authCommand(address_).toString();
    out.flush();
    const int marker = in.get();
    if (marker == std::char_traits<char>::eof()) throw Poco::IOException("connection closed");
    auto reply = Poco::Redis::RedisType::createRedisType(static_cast<char>(marker));
    if (reply.isNull()) throw Poco::ProtocolException("unexpected reply from redis");
    reply->read(in);
    if (reply->isError()) throw Poco::Redis::RedisException("AUTH refused");
  }
  Poco::Redis::Array command;
  command << "SUBSCRIBE" << channel_ << sessions_channel_;
  out << command.toString();
  out.flush();
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    if (in.rdbuf()->in_avail() <= 0 && !socket.poll(kStopCheck, Poco::Net::Socket::SELECT_READ)) {
      continue;
    }
    const int marker = in.get();
    if (marker == std::char_traits<char>::eof()) throw Poco::IOException("connection closed");
    auto reply = Poco::Redis::RedisType::createRedisType(static_cast<char>(marker));
    if (reply.isNull()) throw Poco::ProtocolException("unexpected reply from redis");
    reply->read(in);
    auto* array = dynamic_cast<Poco::Redis::Type<Poco::Redis::Array>*>(reply.get());
    if (array == nullptr || array->value().size() != 3) {
      throw Poco::ProtocolException("unexpected reply from redis: " + reply->toString());
    }
    const auto& value = array->value();
    const auto kind = value.get<Poco::Redis::BulkString>(0).value();
    if (kind == "subscribe") {
      if (!subscribed_.exchange(true)) {
        log::main().info("live updates: subscribed to redis channel {} at {}:{}", channel_,
                         address_.host, address_.port);
      }
      continue;
    }
    if (kind != "message") continue;
    const auto payload = value.get<Poco::Redis::BulkString>(2);
    if (payload.isNull()) continue;
    if (value.get<Poco::Redis::BulkString>(1).value() == sessions_channel_) {
      const std::string& text = payload.value();
      const auto space = text.find(' ');
      if (space == std::string::npos || space + 1 == text.size()) {
        log::main().warn("live updates: ignoring a malformed message on redis channel {}",
                         sessions_channel_);
        continue;
      }
      if (text.compare(0, space, origin_) == 0 && space == origin_.size()) continue;
      deliverToAll(session_handlers_, text.substr(space + 1));
      continue;
    }
    auto decoded = decodeBatch(payload.value());
    if (!decoded) {
      log::main().warn("live updates: ignoring a malformed message on redis channel {}", channel_);
      continue;
    }
    if (decoded->origin == origin_) continue;  // delivered locally when published
    deliverToAll(handlers_, decoded->batch);
  }
}

}  // namespace skinpulse::events
