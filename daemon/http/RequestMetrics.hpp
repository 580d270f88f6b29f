#pragma once

// RequestMetrics: one answered request into skinpulse_http_requests_total and
// skinpulse_http_request_duration_seconds. The labels are bounded whatever a client
// sends: the route is the matched pattern (Router::Match::route, "unmatched" otherwise),
// a method outside the standard ones is "other".

#include <string_view>

namespace skinpulse::http {

/// `method` as the metrics' label: itself when standard, "other" when not.
std::string_view methodLabel(std::string_view method);

void recordRequest(std::string_view route, std::string_view method, int status, double seconds);

}  // namespace skinpulse::http
