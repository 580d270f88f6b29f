#include "http/ResponseHead.hpp"

#include "http/Problem.hpp"

#include <ctime>
#include <strings.h>

namespace skinpulse::http {

const std::string& httpDate() {
  thread_local std::time_t cached_second = 0;
  thread_local std::string cached;
  const std::time_t now = std::time(nullptr);
  if (now != cached_second || cached.empty()) {
    std::tm parts{};
    ::gmtime_r(&now, &parts);
    char text[64];
    const auto size = std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &parts);
    cached.assign(text, size);
    cached_second = now;
  }
  return cached;
}

namespace {

bool tokenChar(unsigned char c) {
  if (c >= '0' && c <= '9') return true;
  if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
}

bool validName(std::string_view name) {
  if (name.empty()) return false;
  for (const unsigned char c : name) {
    if (!tokenChar(c)) return false;
  }
  return true;
}

bool validValue(std::string_view value) {
  return value.find_first_of(std::string_view("\r\n\0", 3)) == std::string_view::npos;
}

}  // namespace

std::optional<std::string> unsafeHeaderField(const Response& response) {
  if (!validValue(response.content_type)) return std::string("Content-Type");
  for (const auto& [name, value] : response.headers) {
    if (!validName(name) || !validValue(value)) return name;
  }
  return std::nullopt;
}

std::string responseHead(const Response& response, std::size_t body_bytes,
                         ConnectionHeader connection) {
  std::string head;
  head.reserve(256 + response.headers.size() * 48);
  head += "HTTP/1.1 ";
  head += std::to_string(response.status);
  head += ' ';
  head += statusTitle(response.status);
  head += "\r\nDate: ";
  head += httpDate();
  head += "\r\n";
  bool has_type = false;
  for (const auto& [name, value] : response.headers) {
    if (strcasecmp(name.c_str(), "Content-Type") == 0) has_type = true;
  }
  if (!response.content_type.empty() && !has_type) {
    head += "Content-Type: ";
    head += response.content_type;
    head += "\r\n";
  }
  // A 304 has no body and names no length (RFC 9110 §8.6: it would have to be the
  // length of the 200 it stands for).
  if (response.status >= 200 && response.status != 304) {
    head += "Content-Length: ";
    head += std::to_string(body_bytes);
    head += "\r\n";
  }
  for (const auto& [name, value] : response.headers) {
    head += name;
    head += ": ";
    head += value;
    head += "\r\n";
  }
  if (connection == ConnectionHeader::kClose) head += "Connection: close\r\n";
  if (connection == ConnectionHeader::kKeepAlive) head += "Connection: keep-alive\r\n";
  head += "\r\n";
  return head;
}

}  // namespace skinpulse::http
