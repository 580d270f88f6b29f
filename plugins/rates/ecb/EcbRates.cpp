#include "EcbRates.hpp"

#include "EcbParser.hpp"

#include <charconv>
#include <stdexcept>

namespace skinpulse::plugins::ecb {

EcbRates::EcbRates(sdk::Host& host)
    : host_(host), url_(host.config().getString("url", kDefaultUrl)), max_bytes_(kDefaultMaxBytes) {
  if (url_.rfind("http://", 0) != 0 && url_.rfind("https://", 0) != 0) {
    throw std::invalid_argument("url must be an http:// or https:// address");
  }
  if (auto text = host.config().get("max_bytes")) {
    std::size_t value = 0;
    const auto parsed = std::from_chars(text->data(), text->data() + text->size(), value);
    if (parsed.ec != std::errc() || parsed.ptr != text->data() + text->size() || value < 1024 ||
        value > 64u * 1024u * 1024u) {
      throw std::invalid_argument("max_bytes must be an integer 1024..67108864, not '" + *text +
                                  "'");
    }
    max_bytes_ = value;
  }
}

sdk::RateBatch EcbRates::fetchRates() {
  sdk::RateBatch batch;
  sdk::HttpRequest request;
  request.url = url_;
  request.headers = {{"Accept", "application/xml, text/xml"}};
  // Short: the document is 2 KiB, and a poll in flight delays the daemon's shutdown.
  request.timeout = std::chrono::milliseconds(10000);
  request.max_body_bytes = max_bytes_;
  const sdk::HttpResponse response = host_.http().send(request);
  using Code = sdk::Status::Code;
  if (response.error == sdk::HttpResponse::Error::kTooLarge) {
    batch.status = sdk::Status(Code::kTooLarge, "ECB document over max_bytes");
    return batch;
  }
  if (response.error != sdk::HttpResponse::Error::kNone) {
    batch.status = sdk::Status(Code::kUnavailable, response.error_message);
    return batch;
  }
  if (response.status == 429) {
    batch.status = sdk::Status(Code::kRateLimited, "ECB answered 429");
    if (auto after = response.header("Retry-After")) {
      std::int64_t seconds = 0;
      const auto parsed = std::from_chars(after->data(), after->data() + after->size(), seconds);
      if (parsed.ec == std::errc() && seconds > 0) batch.retry_after_seconds = seconds;
    }
    return batch;
  }
  if (response.status != 200) {
    batch.status =
        sdk::Status(Code::kUnavailable, "ECB answered HTTP " + std::to_string(response.status));
    return batch;
  }
  EcbDocument document = parseEcbDaily(response.body, max_bytes_);
  if (!document.error.empty()) {
    batch.status = sdk::Status(Code::kMalformed, document.error);
    return batch;
  }
  if (document.skipped > 0) {
    host_.logger().warn(std::to_string(document.skipped) +
                        " ECB row(s) skipped (bad code or rate)");
  }
  batch.rates = std::move(document.rates);
  return batch;
}

}  // namespace skinpulse::plugins::ecb
