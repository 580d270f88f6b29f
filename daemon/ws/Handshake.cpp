#include "ws/Handshake.hpp"

#include "http/HttpError.hpp"

#include <Poco/Base64Encoder.h>
#include <Poco/SHA1Engine.h>

#include <algorithm>
#include <cctype>
#include <sstream>

namespace skinpulse::ws {
namespace {

constexpr const char* kGuid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Whether a comma-separated header value holds `token` (case-insensitive).
bool hasToken(const std::string& value, const std::string& token) {
  std::stringstream list(lower(value));
  std::string item;
  while (std::getline(list, item, ',')) {
    const auto first = item.find_first_not_of(" \t");
    const auto last = item.find_last_not_of(" \t");
    if (first != std::string::npos && item.substr(first, last - first + 1) == token) return true;
  }
  return false;
}

// A valid key is base64 of exactly 16 bytes: 22 alphabet characters and "==".
bool isValidKey(const std::string& key) {
  if (key.size() != 24 || key.compare(22, 2, "==") != 0) return false;
  return std::all_of(key.begin(), key.begin() + 22,
                     [](unsigned char c) { return std::isalnum(c) != 0 || c == '+' || c == '/'; });
}

http::HttpError upgradeRequired(const std::string& detail) {
  return http::HttpError(426, "upgrade_required", detail,
                         {{"Upgrade", "websocket"}, {"Sec-WebSocket-Version", "13"}});
}

}  // namespace

std::string acceptKey(const std::string& client_key) {
  Poco::SHA1Engine sha1;
  sha1.update(client_key + kGuid);
  const auto& digest = sha1.digest();
  std::ostringstream out;
  Poco::Base64Encoder encoder(out);
  encoder.write(reinterpret_cast<const char*>(digest.data()),
                static_cast<std::streamsize>(digest.size()));
  encoder.close();
  return out.str();
}

void acceptHandshake(const http::Request& request, http::Response& response) {
  if (!hasToken(request.header("Upgrade").value_or(""), "websocket") ||
      !hasToken(request.header("Connection").value_or(""), "upgrade")) {
    throw upgradeRequired("this endpoint takes WebSocket connections only");
  }
  if (request.header("Sec-WebSocket-Version").value_or("") != "13") {
    throw upgradeRequired("only WebSocket version 13 is supported");
  }
  const auto key = request.header("Sec-WebSocket-Key").value_or("");
  if (!isValidKey(key)) {
    throw http::HttpError(400, "invalid_request", "Sec-WebSocket-Key is missing or malformed");
  }
  response = http::Response();
  response.status = 101;
  response.content_type.clear();
  response.setHeader("Upgrade", "websocket");
  response.setHeader("Connection", "Upgrade");
  response.setHeader("Sec-WebSocket-Accept", acceptKey(key));
}

}  // namespace skinpulse::ws
