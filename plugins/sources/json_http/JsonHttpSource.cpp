#include "JsonHttpSource.hpp"

#include "SourceSupport.hpp"

#include <algorithm>
#include <charconv>
#include <exception>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace skinpulse::plugins::json_http {
namespace {

constexpr std::size_t kMaxDepth = 64;
constexpr std::uint64_t kMaxMaxBytes = 1024ull * 1024ull * 1024ull;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool isTokenChar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

template <typename T>
bool parseInteger(std::string_view text, T& out) {
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return !text.empty() && ec == std::errc() && ptr == end;
}

FieldPath pathKey(const sdk::Config& config, std::string_view key, FieldPath fallback) {
  const auto text = config.get(key);
  return text ? FieldPath::parse(key, *text) : fallback;
}

// An optional field: absent key → `fallback`; an empty value → not read.
std::optional<FieldPath> optionalPathKey(const sdk::Config& config, std::string_view key,
                                         std::optional<FieldPath> fallback) {
  const auto text = config.get(key);
  if (!text) return fallback;
  if (trim(*text).empty()) return std::nullopt;
  return FieldPath::parse(key, *text);
}

bool samePath(const std::optional<FieldPath>& a, const std::optional<FieldPath>& b) {
  return a && b && a->from_root == b->from_root && a->tokens == b->tokens;
}

}  // namespace

sdk::Fields parseHeaderList(std::string_view text) {
  sdk::Fields out;
  std::size_t index = 0;
  while (!text.empty()) {
    const auto semi = text.find(';');
    const std::string_view part = trim(text.substr(0, semi));
    text = semi == std::string_view::npos ? std::string_view() : text.substr(semi + 1);
    if (part.empty()) continue;
    ++index;
    const auto colon = part.find(':');
    if (colon == std::string_view::npos) {
      throw std::runtime_error("headers: entry " + std::to_string(index) + " is not 'Name: value'");
    }
    const std::string_view name = trim(part.substr(0, colon));
    const std::string_view value = trim(part.substr(colon + 1));
    if (name.empty() || !std::all_of(name.begin(), name.end(), isTokenChar)) {
      throw std::runtime_error("headers: entry " + std::to_string(index) +
                               " has an invalid header name");
    }
    const std::string lowered = lower(name);
    if (lowered == "host" || lowered == "content-length" || lowered == "transfer-encoding" ||
        lowered == "connection") {
      throw std::runtime_error("headers: " + std::string(name) + " is set by the HTTP client");
    }
    for (const char c : value) {
      const auto u = static_cast<unsigned char>(c);
      if ((u < 0x20 && c != '\t') || u == 0x7f) {
        throw std::runtime_error("headers: the value of " + std::string(name) +
                                 " contains a control character");
      }
    }
    out.emplace_back(std::string(name), std::string(value));
  }
  return out;
}

JsonHttpSettings readSettings(const sdk::Config& config) {
  JsonHttpSettings settings;
  settings.url = std::string(trim(config.getString("url", "")));
  if (settings.url.rfind("http://", 0) != 0 && settings.url.rfind("https://", 0) != 0) {
    throw std::runtime_error("url must be an http:// or https:// address");
  }
  Mapping& mapping = settings.mapping;
  // json_http's defaults (README "Mapping"): a `volume` and a `time` member when present.
  mapping.volume = FieldPath::member("volume");
  mapping.time = FieldPath::member("time");
  const std::string unit = lower(trim(config.getString("price_unit", "cents")));
  if (unit == "major") {
    mapping.unit = PriceUnit::kMajor;
  } else if (unit == "milli") {
    mapping.unit = PriceUnit::kMilli;
  } else if (unit != "cents") {
    throw std::runtime_error("price_unit must be 'cents', 'major' or 'milli'");
  }
  if (const auto bytes = config.get("max_bytes")) {
    std::uint64_t value = 0;
    if (!parseInteger(trim(*bytes), value) || value == 0 || value > kMaxMaxBytes) {
      throw std::runtime_error("max_bytes must be an integer in [1, 1073741824]");
    }
    settings.max_bytes = static_cast<std::size_t>(value);
  }
  if (const auto headers = config.get("headers")) settings.headers = parseHeaderList(*headers);
  if (const auto path = config.get("items_path")) {
    auto tokens = parsePointer(trim(*path));
    if (!tokens) throw std::runtime_error("items_path must be a JSON pointer ('', '/items')");
    mapping.items_path = std::move(*tokens);
  }
  mapping.name = pathKey(config, "name_field", mapping.name);
  if (mapping.name.from_root) throw std::runtime_error("name_field cannot be a '#' pointer");
  mapping.price = pathKey(config, "price_field", mapping.price);
  mapping.volume = optionalPathKey(config, "volume_field", mapping.volume);
  mapping.listings = optionalPathKey(config, "listings_field", std::nullopt);
  if (samePath(mapping.volume, mapping.listings)) {
    throw std::runtime_error(
        "volume_field and listings_field name the same field: a listing count is not traded "
        "volume (set volume_field = to read no volume)");
  }
  mapping.time = optionalPathKey(config, "time_field", mapping.time);
  mapping.image = optionalPathKey(config, "image_field", std::nullopt);
  mapping.variant = optionalPathKey(config, "variant_field", std::nullopt);
  mapping.variant_prices = optionalPathKey(config, "variant_prices_field", std::nullopt);
  // The shapes the csgo-trader mirror files write a price in (README "Value shapes").
  mapping.unwrap_price_objects = true;
  const std::string currency(trim(config.getString("currency", "USD")));
  if (currency.size() != 3 ||
      !std::all_of(currency.begin(), currency.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) {
    throw std::runtime_error("currency must be an ISO 4217 code such as USD (three capitals)");
  }
  mapping.currency = currency;
  return settings;
}

sdk::PollReport parseBody(const std::string& body, const Mapping& mapping, RowCounts& counts) {
  return support::parseList(body, mapping, kMaxDepth, counts);
}

JsonHttpSource::JsonHttpSource(sdk::Host& host)
    : host_(host), settings_(readSettings(host.config())) {}

sdk::PollReport JsonHttpSource::poll() {
  try {
    return fetchOnce();
  } catch (const std::exception& e) {
    sdk::PollReport result;
    result.status = sdk::Status(sdk::Status::Code::kInternal, e.what());
    return result;
  } catch (...) {
    sdk::PollReport result;
    result.status = sdk::Status(sdk::Status::Code::kInternal, "unknown exception");
    return result;
  }
}

sdk::PollReport JsonHttpSource::fetchOnce() {
  sdk::HttpRequest request;
  request.method = "GET";
  request.url = settings_.url;
  request.timeout = kTimeout;
  request.max_body_bytes = settings_.max_bytes;
  const bool has_accept =
      std::any_of(settings_.headers.begin(), settings_.headers.end(),
                  [](const auto& field) { return lower(field.first) == "accept"; });
  if (!has_accept) request.headers.emplace_back("Accept", "application/json");
  request.headers.insert(request.headers.end(), settings_.headers.begin(), settings_.headers.end());

  const sdk::HttpResponse response = host_.http().send(request);
  sdk::PollReport result;
  using Code = sdk::Status::Code;
  switch (response.error) {
    case sdk::HttpResponse::Error::kNone:
      break;
    case sdk::HttpResponse::Error::kTooLarge:
      result.status = sdk::Status(Code::kTooLarge, "response too large: over max_bytes (" +
                                                       std::to_string(settings_.max_bytes) + ")");
      return result;
    case sdk::HttpResponse::Error::kTimeout:
      result.status = sdk::Status(Code::kUnavailable, "timed out: " + response.error_message);
      return result;
    default:
      result.status = sdk::Status(Code::kUnavailable, response.error_message);
      return result;
  }
  if (response.status == 429) {
    result.status = sdk::Status(Code::kRateLimited, "HTTP 429 from upstream");
    if (const auto after = response.header("Retry-After")) {
      result.retry_after_seconds =
          support::retryAfterSeconds(*after, host_.clock().nowUnixSeconds());
    }
    return result;
  }
  if (response.status == 401 || response.status == 403) {
    result.status = sdk::Status(Code::kRejected, "HTTP " + std::to_string(response.status) +
                                                     " from upstream (check headers)");
    return result;
  }
  if (response.status < 200 || response.status > 299) {
    result.status = sdk::Status(Code::kUnavailable,
                                "HTTP " + std::to_string(response.status) + " from upstream");
    return result;
  }

  RowCounts counts;
  result = parseBody(response.body, settings_.mapping, counts);
  if (result.status.isOk() || counts.rows > 0) {
    const std::string line = counts.summary(result.quotes.size());
    if (counts.malformed() > 0) {
      host_.logger().warn(line);
    } else {
      host_.logger().debug(line);
    }
  }
  return result;
}

}  // namespace skinpulse::plugins::json_http
