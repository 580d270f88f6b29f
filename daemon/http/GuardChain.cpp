#include "http/GuardChain.hpp"

#include <algorithm>

namespace skinpulse::http {

GuardChain::GuardChain(std::vector<const RequestGuard*> guards) : guards_(std::move(guards)) {
  guards_.erase(std::remove(guards_.begin(), guards_.end(), nullptr), guards_.end());
}

void GuardChain::admit(Request& request, const RouteOptions& route) const {
  for (const RequestGuard* guard : guards_) guard->admit(request, route);
}

}  // namespace skinpulse::http
