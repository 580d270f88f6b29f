#include "Encoding.hpp"

namespace skinpulse::plugins::identity {
namespace {

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string percentEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size() * 3);
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    const bool unreserved = (byte >= 'A' && byte <= 'Z') || (byte >= 'a' && byte <= 'z') ||
                            (byte >= '0' && byte <= '9') || byte == '-' || byte == '_' ||
                            byte == '.' || byte == '~';
    if (unreserved) {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(kHex[byte >> 4]);
      out.push_back(kHex[byte & 0x0F]);
    }
  }
  return out;
}

std::string formEncode(const sdk::Fields& fields) {
  std::string out;
  for (const auto& [name, value] : fields) {
    if (!out.empty()) out.push_back('&');
    out += percentEncode(name);
    out.push_back('=');
    out += percentEncode(value);
  }
  return out;
}

std::optional<std::string> formDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '+') {
      out.push_back(' ');
    } else if (c == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      const int high = hexValue(text[i + 1]);
      const int low = hexValue(text[i + 2]);
      if (high < 0 || low < 0) return std::nullopt;
      out.push_back(static_cast<char>(high * 16 + low));
      i += 2;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::optional<sdk::Fields> parseQuery(std::string_view query) {
  sdk::Fields fields;
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view segment = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (segment.empty()) continue;
    const auto equals = segment.find('=');
    auto name = formDecode(segment.substr(0, equals));
    auto value = formDecode(equals == std::string_view::npos ? std::string_view()
                                                             : segment.substr(equals + 1));
    if (!name || !value) return std::nullopt;
    fields.emplace_back(std::move(*name), std::move(*value));
  }
  return fields;
}

std::string appendQuery(const std::string& url, const std::string& query) {
  if (query.empty()) return url;
  const char separator = url.find('?') == std::string::npos ? '?' : '&';
  return url + separator + query;
}

std::size_t countField(const sdk::Fields& fields, std::string_view name) {
  std::size_t count = 0;
  for (const auto& [key, value] : fields) {
    if (key == name) ++count;
  }
  return count;
}

std::optional<std::string> singleField(const sdk::Fields& fields, std::string_view name) {
  std::optional<std::string> found;
  for (const auto& [key, value] : fields) {
    if (key != name) continue;
    if (found) return std::nullopt;
    found = value;
  }
  return found;
}

}  // namespace skinpulse::plugins::identity
