#include "redis/RedisClient.hpp"

namespace skinpulse::redis {
namespace {

Poco::Timespan milliseconds(int ms) {
  return Poco::Timespan(static_cast<Poco::Timespan::TimeDiff>(ms) * 1000);
}

}  // namespace

Poco::Redis::RedisType::Ptr run(Poco::Redis::Client& client, const Poco::Redis::Array& command) {
  Poco::Redis::RedisType::Ptr reply = client.sendCommand(command);
  if (reply->type() == Poco::Redis::RedisTypeTraits<Poco::Redis::Error>::TypeId) {
    auto* error = dynamic_cast<Poco::Redis::Type<Poco::Redis::Error>*>(reply.get());
    throw ErrorReply(error != nullptr ? error->value().getMessage() : std::string("error reply"));
  }
  return reply;
}

Poco::Redis::Array authCommand(const RedisUrl& url) {
  Poco::Redis::Array command;
  command << "AUTH";
  if (!url.user.empty()) command << url.user;
  command << url.password;
  return command;
}

std::unique_ptr<Poco::Redis::Client> connect(const RedisUrl& url, const ConnectOptions& options) {
  auto client = std::make_unique<Poco::Redis::Client>();
  client->connect(url.host, url.port, milliseconds(options.connect_timeout_ms));
  client->setReceiveTimeout(milliseconds(options.reply_timeout_ms));
  if (!url.password.empty()) run(*client, authCommand(url));
  if (!options.client_name.empty()) {
    Poco::Redis::Array name;
    name << "CLIENT"
         << "SETNAME" << options.client_name;
    run(*client, name);
  }
  if (options.select_database && url.database != 0) {
    Poco::Redis::Array select;
    select << "SELECT" << std::to_string(url.database);
    run(*client, select);
  }
  return client;
}

}  // namespace skinpulse::redis
