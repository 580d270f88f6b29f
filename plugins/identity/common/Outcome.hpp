#pragma once

// How an identity plugin answers: refusals carry one of the user-facing codes of
// docs/api.md §5, and upstream trouble is described without leaking URLs or secrets.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/identity.hpp"

#include <string>
#include <string_view>

namespace skinpulse::plugins::identity {

/// The `auth_error` codes of docs/api.md §5 that the plugins produce.
inline constexpr std::string_view kStateMismatch = "state_mismatch";
inline constexpr std::string_view kProviderError = "provider_error";
inline constexpr std::string_view kEmailUnverified = "email_unverified";
inline constexpr std::string_view kInvalidClaimedId = "invalid_claimed_id";
inline constexpr std::string_view kVerificationFailed = "verification_failed";

/// A refused login: `status` carries `code` and `message`, `error_code` the user code.
sdk::VerifiedIdentity refusal(sdk::Status::Code code, std::string_view error_code,
                              std::string message);

/// Why a host HTTP answer is not usable, or an empty string for a 2xx. Transport errors
/// and over-cap bodies are described by their kind; the message never contains the URL.
std::string httpProblem(const sdk::HttpResponse& response);

/// The status code a failed upstream exchange maps to: kUnavailable for transport, 5xx and
/// 429, kTooLarge for an over-cap body, kRejected for any other non-2xx.
sdk::Status::Code httpFailureCode(const sdk::HttpResponse& response);

/// `text` cut to at most `max_bytes` bytes (never inside a UTF-8 sequence) with ASCII control
/// characters removed: provider-supplied names are shown to users and written to logs.
std::string cleanDisplayText(std::string_view text, std::size_t max_bytes);

}  // namespace skinpulse::plugins::identity
