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

}  // namespace

void Router::add(const std::string& method, const std::string& pattern, Handler handler,
                 RouteOptions options) {
  if (pattern.empty() || pattern.front() != '/') {
    throw std::invalid_argument("route pattern must start with '/': " + pattern);
  }
  Route route{method, pattern, {}, std::move(handler), options};
  for (auto segment : splitPath(pattern)) route.segments.emplace_back(segment);
  routes_.push_back(std::move(route));
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
