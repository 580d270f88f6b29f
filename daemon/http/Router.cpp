#include "http/Router.hpp"

#include <algorithm>
#include <stdexcept>

namespace skinpulse::http {
namespace {

std::vector<std::string_view> splitPath(std::string_view path) {
  std::vector<std::string_view> segments;
  if (path.empty() || path.front() != '/') return segments;
  path.remove_prefix(1);
  while (true) {
    const auto slash = path.find('/');
    segments.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return segments;
}

// `path` is `prefix` or lies under it, segment by segment.
bool underPrefix(std::string_view path, std::string_view prefix) {
  return path.substr(0, prefix.size()) == prefix &&
         (path.size() == prefix.size() || path[prefix.size()] == '/');
}

}  // namespace

void Router::add(const std::string& method, const std::string& pattern, Handler handler,
                 RouteOptions options) {
  if (pattern.empty() || pattern.front() != '/') {
    throw std::invalid_argument("route pattern must start with '/': " + pattern);
  }
  Route route{method, pattern, {}, std::move(handler), options};
  for (auto segment : splitPath(pattern)) route.segments.emplace_back(segment);
  any_body_limit_ = any_body_limit_ || options.max_body_bytes > 0;
  routes_.push_back(std::move(route));
}

void Router::policy(const std::string& prefix, PathPolicy policy) {
  if (prefix.empty() || prefix.front() != '/' || prefix.back() == '/') {
    throw std::invalid_argument("policy prefix must start with '/' and not end with it: " + prefix);
  }
  policies_.emplace_back(prefix, std::move(policy));
}

PathPolicy Router::prefixPolicy(std::string_view path) const {
  PathPolicy merged;
  for (const auto& [prefix, policy] : policies_) {
    if (!underPrefix(path, prefix)) continue;
    merged.no_store = merged.no_store || policy.no_store;
    if (merged.rate_limit_scope.empty()) merged.rate_limit_scope = policy.rate_limit_scope;
  }
  return merged;
}

bool Router::noStore(const std::string& path, const Match& match) const {
  if (match.handler != nullptr) return match.options.no_store;
  if (prefixPolicy(path).no_store) return true;
  const auto segments = splitPath(path);
  return std::any_of(routes_.begin(), routes_.end(), [&](const Route& route) {
    return route.options.no_store && matches(route, segments, nullptr);
  });
}

std::size_t Router::bodyLimit(std::string_view method, std::string_view path,
                              std::size_t fallback) const {
  if (!any_body_limit_) return fallback;  // the common case: no route asks for its own
  const auto segments = splitPath(path);
  for (const auto& route : routes_) {
    if (route.method == method && matches(route, segments, nullptr)) {
      return route.options.max_body_bytes > 0 ? route.options.max_body_bytes : fallback;
    }
  }
  return fallback;
}

bool Router::matches(const Route& route, const std::vector<std::string_view>& segments,
                     std::map<std::string, std::string>* params) {
  if (route.segments.size() != segments.size()) return false;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string& expected = route.segments[i];
    if (!expected.empty() && expected.front() == ':') {
      if (segments[i].empty()) return false;
      if (params != nullptr) (*params)[expected.substr(1)] = std::string(segments[i]);
    } else if (expected != segments[i]) {
      return false;
    }
  }
  return true;
}

Router::Match Router::match(const std::string& method, const std::string& path,
                            std::map<std::string, std::string>& params) const {
  const auto segments = splitPath(path);
  const std::string& wanted = method == "HEAD" ? std::string("GET") : method;
  Match result;
  for (const auto& route : routes_) {
    if (!matches(route, segments, nullptr)) continue;
    result.route = route.pattern;
    if (route.method == wanted) {
      matches(route, segments, &params);
      result.handler = &route.handler;
      result.options = route.options;
      result.allowed.clear();
      if (!policies_.empty()) {
        auto policy = prefixPolicy(path);
        result.options.no_store = result.options.no_store || policy.no_store;
        if (result.options.rate_limit_scope.empty()) {
          result.options.rate_limit_scope = std::move(policy.rate_limit_scope);
        }
      }
      return result;
    }
    result.allowed.push_back(route.method);
    if (route.method == "GET") result.allowed.push_back("HEAD");
  }
  std::sort(result.allowed.begin(), result.allowed.end());
  result.allowed.erase(std::unique(result.allowed.begin(), result.allowed.end()),
                       result.allowed.end());
  return result;
}

}  // namespace skinpulse::http
