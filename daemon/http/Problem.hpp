#pragma once

// RFC 9457 problem details: the body of every error response.

#include "http/HttpError.hpp"
#include "http/Request.hpp"

namespace skinpulse::http {

/// Fills `response` with the problem+json form of `error` (status, body, extra headers).
void renderProblem(const HttpError& error, Response& response);

/// The standard reason phrase of a status ("Not Found").
std::string statusTitle(int status);

}  // namespace skinpulse::http
