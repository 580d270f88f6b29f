#pragma once

// GuardChain: several request guards run as one, in the order given (docs/api.md §2:
// rate limits and read budgets before the session, the session before CSRF). The first
// that refuses (throws HttpError) ends the request; the rest do not run. Null entries are
// skipped, so a module that can be left out leaves a hole, not a special case.

#include "http/RequestGuard.hpp"

#include <vector>

namespace skinpulse::http {

class GuardChain : public RequestGuard {
 public:
  explicit GuardChain(std::vector<const RequestGuard*> guards);
  void admit(Request& request, const RouteOptions& route) const override;

 private:
  std::vector<const RequestGuard*> guards_;
};

}  // namespace skinpulse::http
