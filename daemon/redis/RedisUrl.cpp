#include "redis/RedisUrl.hpp"

#include <Poco/Exception.h>
#include <Poco/URI.h>

#include <stdexcept>

namespace skinpulse::redis {

RedisUrl parseRedisUrl(const std::string& text) {
  Poco::URI uri;
  try {
    uri = Poco::URI(text);
  } catch (const Poco::Exception&) {
    throw std::invalid_argument("REDIS_URL is not a URL (expected redis://host:port/db)");
  }
  if (uri.getScheme() != "redis") {
    throw std::invalid_argument("REDIS_URL must use the redis:// scheme");
  }
  RedisUrl url;
  url.host = uri.getHost();
  if (url.host.empty()) throw std::invalid_argument("REDIS_URL has no host");
  if (uri.getPort() != 0) url.port = uri.getPort();
  const std::string& info = uri.getUserInfo();
  if (!info.empty()) {
    const auto colon = info.find(':');
    std::string user = colon == std::string::npos ? std::string() : info.substr(0, colon);
    std::string password = colon == std::string::npos ? info : info.substr(colon + 1);
    Poco::URI::decode(user, url.user);
    Poco::URI::decode(password, url.password);
  }
  std::string path = uri.getPath();
  if (!path.empty() && path.front() == '/') path.erase(0, 1);
  if (!path.empty()) {
    std::size_t used = 0;
    int db = -1;
    try {
      db = std::stoi(path, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != path.size() || db < 0) {
      throw std::invalid_argument("REDIS_URL database '" + path + "' is not a number");
    }
    url.database = db;
  }
  return url;
}

}  // namespace skinpulse::redis
