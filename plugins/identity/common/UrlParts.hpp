#pragma once

// Just enough URL handling for redirect and return_to checks. Comparisons are exact on
// the bytes: callers compare URLs the daemon built itself, so no normalisation is needed
// and none is attempted (normalising is where look-alike tricks hide).

#include <string>
#include <string_view>

namespace skinpulse::plugins::identity {

struct SplitUrl {
  std::string base;   ///< scheme://authority/path, everything before '?' or '#'
  std::string query;  ///< between '?' and '#', without either
  bool has_fragment = false;
};

SplitUrl splitUrl(std::string_view url);

/// An absolute http:// or https:// URL with a non-empty host, no whitespace, no control
/// characters and no fragment.
bool isHttpUrl(std::string_view url);

/// The realm sent to an OpenID 2.0 provider for a base URL: the base with exactly one
/// trailing '/'.
std::string realmOf(std::string_view base_url);

/// True when `url` lies under `realm` (OpenID 2.0 §9.2 without wildcards): same scheme and
/// authority, and the realm's path is a prefix of the URL's path ending at a '/'.
bool isUnderRealm(std::string_view url, std::string_view realm);

/// Removes trailing '/' characters (for base URLs that get paths appended).
std::string withoutTrailingSlashes(std::string_view url);

}  // namespace skinpulse::plugins::identity
