#include "UrlParts.hpp"

namespace skinpulse::plugins::identity {

SplitUrl splitUrl(std::string_view url) {
  SplitUrl parts;
  const auto hash = url.find('#');
  parts.has_fragment = hash != std::string_view::npos;
  const std::string_view beforeFragment = url.substr(0, hash);
  const auto question = beforeFragment.find('?');
  parts.base = std::string(beforeFragment.substr(0, question));
  if (question != std::string_view::npos) {
    parts.query = std::string(beforeFragment.substr(question + 1));
  }
  return parts;
}

bool isHttpUrl(std::string_view url) {
  std::string_view rest;
  if (url.rfind("https://", 0) == 0) {
    rest = url.substr(8);
  } else if (url.rfind("http://", 0) == 0) {
    rest = url.substr(7);
  } else {
    return false;
  }
  for (const char c : url) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte == 0x7F || c == '#') return false;
  }
  const auto end = rest.find_first_of("/?");
  return end != 0 && !rest.empty();
}

std::string withoutTrailingSlashes(std::string_view url) {
  while (!url.empty() && url.back() == '/') url.remove_suffix(1);
  return std::string(url);
}

std::string realmOf(std::string_view base_url) { return withoutTrailingSlashes(base_url) + "/"; }

bool isUnderRealm(std::string_view url, std::string_view realm) {
  if (!isHttpUrl(url) || !isHttpUrl(realm) || realm.back() != '/') return false;
  // The realm ends with '/', so a prefix match also pins the authority: a realm of
  // https://a.example/ cannot match https://a.example.evil/ or https://a.example:8443/.
  const SplitUrl parts = splitUrl(url);
  return (parts.base + "/").rfind(realm, 0) == 0;
}

}  // namespace skinpulse::plugins::identity
