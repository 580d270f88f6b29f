#include "http/Params.hpp"

#include "common/ValueParsers.hpp"
#include "http/HttpError.hpp"

#include <Poco/UTF8Encoding.h>

namespace skinpulse::http {
namespace {

bool isValidUtf8(const std::string& text) {
  Poco::UTF8Encoding encoding;
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  std::size_t i = 0;
  while (i < text.size()) {
    const int length = encoding.sequenceLength(bytes + i, static_cast<int>(text.size() - i));
    if (length <= 0 || i + static_cast<std::size_t>(length) > text.size() ||
        !encoding.isLegal(bytes + i, length)) {
      return false;
    }
    i += static_cast<std::size_t>(length);
  }
  return true;
}

}  // namespace

std::int64_t positiveIdParam(const Request& request, const std::string& name) {
  const auto it = request.path_params.find(name);
  const std::string text = it == request.path_params.end() ? std::string() : it->second;
  const bool digitsOnly =
      !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  const auto value = digitsOnly ? common::parseInteger(text) : std::nullopt;
  if (!value || *value <= 0) throw HttpError::invalidParameter(name, "must be a positive integer");
  return *value;
}

std::int64_t integerParam(const Request& request, const std::string& name, std::int64_t fallback,
                          std::int64_t min, std::int64_t max) {
  const auto text = request.queryParam(name);
  if (!text) return fallback;
  const auto value = common::parseInteger(*text);
  if (!value || *value < min || *value > max) {
    throw HttpError::invalidParameter(
        name, "must be an integer in " + std::to_string(min) + ".." + std::to_string(max));
  }
  return *value;
}

std::optional<bool> booleanParam(const Request& request, const std::string& name) {
  const auto text = request.queryParam(name);
  if (!text) return std::nullopt;
  if (*text == "true") return true;
  if (*text == "false") return false;
  throw HttpError::invalidParameter(name, "must be true or false");
}

std::optional<std::string> textParam(const Request& request, const std::string& name,
                                     std::size_t max_bytes, bool allow_empty) {
  auto text = request.queryParam(name);
  if (!text) return std::nullopt;
  if (text->empty()) {
    if (allow_empty) return std::nullopt;
    throw HttpError::invalidParameter(name, "must not be empty");
  }
  if (text->size() > max_bytes) {
    throw HttpError::invalidParameter(name,
                                      "is longer than " + std::to_string(max_bytes) + " bytes");
  }
  if (!isValidUtf8(*text)) throw HttpError::invalidParameter(name, "is not valid UTF-8");
  return text;
}

std::int64_t windowParam(const Request& request, const std::string& fallback) {
  const std::string text = request.queryParam("window").value_or(fallback);
  if (text == "1h") return 3600;
  if (text == "24h") return 86400;
  if (text == "7d") return 7 * 86400;
  throw HttpError::invalidParameter("window", "must be 1h, 24h or 7d");
}

}  // namespace skinpulse::http
