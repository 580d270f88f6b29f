#include "Outcome.hpp"

namespace skinpulse::plugins::identity {

sdk::VerifiedIdentity refusal(sdk::Status::Code code, std::string_view error_code,
                              std::string message) {
  sdk::VerifiedIdentity identity;
  identity.status = sdk::Status(code, std::move(message));
  identity.error_code = std::string(error_code);
  return identity;
}

std::string httpProblem(const sdk::HttpResponse& response) {
  using Error = sdk::HttpResponse::Error;
  switch (response.error) {
    case Error::kNone:
      break;
    case Error::kTimeout:
      return "timed out";
    case Error::kTooLarge:
      return "response over the size cap";
    case Error::kConnect:
      return "connection failed: " + response.error_message;
    case Error::kProtocol:
      return "protocol error: " + response.error_message;
  }
  if (response.status >= 200 && response.status < 300) return {};
  return "HTTP status " + std::to_string(response.status);
}

sdk::Status::Code httpFailureCode(const sdk::HttpResponse& response) {
  using Error = sdk::HttpResponse::Error;
  if (response.error == Error::kTooLarge) return sdk::Status::Code::kTooLarge;
  if (response.error != Error::kNone) return sdk::Status::Code::kUnavailable;
  if (response.status == 429 || response.status >= 500) return sdk::Status::Code::kUnavailable;
  return sdk::Status::Code::kRejected;
}

std::string cleanDisplayText(std::string_view text, std::size_t max_bytes) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) continue;
    out.push_back(c);
  }
  if (out.size() <= max_bytes) return out;
  std::size_t cut = max_bytes;
  // Step back over continuation bytes (10xxxxxx) so a multi-byte character is not split.
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
  out.resize(cut);
  return out;
}

}  // namespace skinpulse::plugins::identity
