// csv_feed: a market source for an upstream that serves plain text lines
//   <market_hash_name>,<price in cents>,<volume>
// e.g. "AK-47 | Redline (Field-Tested),4210,17". It shows everything a source plugin
// does: declare its keys, read them, fetch through the host's HTTP client (timeout and
// byte cap are the host's job), and hand observations back. Normalisation, catalogue
// matching and de-duplication happen in the daemon.

#include <skinpulse/sdk/sdk.hpp>
#include <sstream>
#include <stdexcept>

namespace {

using namespace skinpulse::sdk;

const skinpulse_config_key kKeys[] = {
    {"url", "address of the CSV feed", 1},
    {"max_bytes", "largest accepted response in bytes (default 4194304)", 0},
};

class CsvFeedSource final : public MarketSource {
 public:
  explicit CsvFeedSource(Host& host) : host_(host) {
    url_ = host.config().getString("url", "");
    if (url_.rfind("http://", 0) != 0 && url_.rfind("https://", 0) != 0) {
      throw std::runtime_error("url must be an http:// or https:// address");
    }
    max_bytes_ = std::stoul(host.config().getString("max_bytes", "4194304"));
  }

  FetchResult fetch() override {
    HttpRequest request;
    request.url = url_;
    request.timeout = std::chrono::seconds(20);
    request.max_body_bytes = max_bytes_;
    const HttpResponse response = host_.http().send(request);
    FetchResult result;
    if (response.error != HttpResponse::Error::kNone) {
      result.status = Status(Status::Code::kUnavailable, response.error_message);
      return result;
    }
    if (response.status == 429) {
      result.status = Status(Status::Code::kRateLimited, "429 from feed");
      if (auto after = response.header("Retry-After"))
        result.retry_after_seconds = std::stoll(*after);
      return result;
    }
    if (response.status != 200) {
      result.status = Status(Status::Code::kUnavailable, "HTTP " + std::to_string(response.status));
      return result;
    }
    std::istringstream lines(response.body);
    std::string line;
    while (std::getline(lines, line)) {
      // Names contain commas only in rare cases; the last two fields are numbers.
      const auto last = line.rfind(',');
      const auto middle = last == std::string::npos ? last : line.rfind(',', last - 1);
      if (middle == std::string::npos) continue;
      Observation observation;
      observation.market_hash_name = line.substr(0, middle);
      observation.price.form = QuotedPrice::Form::kCents;
      observation.price.cents = std::atoll(line.substr(middle + 1, last - middle - 1).c_str());
      observation.volume = std::atoll(line.c_str() + last + 1);
      result.observations.push_back(std::move(observation));
    }
    host_.logger().debug("fetched " + std::to_string(result.observations.size()) + " rows");
    return result;
  }

 private:
  Host& host_;
  std::string url_;
  std::size_t max_bytes_ = 0;
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(MarketSource, CsvFeedSource, "csv_feed", "1.0.0",
                         "prices from a CSV feed of name,cents,volume lines", kKeys)
