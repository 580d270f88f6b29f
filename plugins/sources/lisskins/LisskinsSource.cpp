#include "LisskinsSource.hpp"

#include "SourceSupport.hpp"

#include <stdexcept>
#include <utility>

namespace skinpulse::plugins::lisskins {
namespace {

using sdk::Status;

constexpr std::string_view kDefaultUrl =
    "https://lis-skins.com/market_export_json/api_csgo_full.json";

// The export nests two levels (document, items, listing) plus whatever a listing carries
// (stickers, say); a hostile body of a million brackets fails at 32.
constexpr StreamJsonParser::Limits kLimits{32, 1024};

/// The sink the host streams the export into: refuses the body of an error answer (only
/// its status and Retry-After matter) and stops the download once the document is known
/// to be malformed.
class ExportSink final : public sdk::BodySink {
 public:
  explicit ExportSink(ExportReader& reader) : reader_(reader) {}

  bool onHead(int status, const sdk::Fields&) override {
    head_at_ = std::chrono::steady_clock::now();
    return status >= 200 && status < 300;
  }
  bool onBody(const char* data, std::size_t size) override {
    if (!reader_.feed(std::string_view(data, size))) malformed_ = true;
    return !malformed_;
  }

  bool malformed() const { return malformed_; }
  /// When the answer's head arrived: the body's download and parse run from there.
  std::chrono::steady_clock::time_point headAt() const { return head_at_; }

 private:
  ExportReader& reader_;
  bool malformed_ = false;
  std::chrono::steady_clock::time_point head_at_;
};

std::int64_t statisticOf(const ItemSummary& item, PriceStatistic statistic) {
  switch (statistic) {
    case PriceStatistic::kMin:
      return item.min_cents;
    case PriceStatistic::kMedian:
      return item.median_cents;
    case PriceStatistic::kP05:
      break;
  }
  return item.p05_cents;
}

}  // namespace

std::optional<PriceStatistic> parsePriceStatistic(std::string_view text) {
  if (text == "min") return PriceStatistic::kMin;
  if (text == "p05") return PriceStatistic::kP05;
  if (text == "median") return PriceStatistic::kMedian;
  return std::nullopt;
}

ExportReader::ExportReader(std::int64_t now) : reducer_(now), parser_(reducer_, kLimits) {}

sdk::PollReport ExportReader::finish(PriceStatistic statistic) {
  if (!parser_.finish()) {
    sdk::PollReport batch;
    batch.status = Status(Status::Code::kMalformed, "invalid export: " + parser_.error());
    batch.rows_read = reducer_.counts().read();
    return batch;
  }
  return quotesOf(reducer_, statistic);
}

sdk::PollReport quotesOf(ListingReducer& reducer, PriceStatistic statistic) {
  sdk::PollReport batch;
  const ReduceCounts& counts = reducer.counts();
  batch.rows_read = counts.read();
  const std::pair<const char*, std::int64_t> reasons[] = {
      {"bad_row", counts.bad_row},     {"bad_name", counts.bad_name},
      {"bad_price", counts.bad_price}, {"bad_time", counts.bad_time},
      {"locked", counts.locked},       {"too_many_items", counts.too_many_items}};
  for (const auto& [reason, n] : reasons) support::addSkip(batch.skipped, reason, n);
  if (!reducer.sawItems()) {
    batch.status = Status(Status::Code::kMalformed, "invalid export: no top-level items array");
    return batch;
  }
  const auto observed_at = reducer.lastUpdate();
  for (const ItemSummary& item : reducer.summarize()) {
    sdk::VariantQuote quote;
    quote.market_hash_name = item.name;
    quote.variant = item.variant;
    quote.price.form = sdk::QuotedPrice::Form::kCents;
    quote.price.cents = statisticOf(item, statistic);
    quote.listings = item.count;
    quote.currency = "USD";
    quote.observed_at = observed_at;
    batch.quotes.push_back(std::move(quote));
  }
  if (batch.quotes.empty() && batch.rows_read > 0) {
    // Every lot locked or unusable: not an empty market (docs/api.md §19).
    batch.status =
        Status(Status::Code::kMalformed, "none of the " + std::to_string(batch.rows_read) +
                                             " lots is one a buyer can take now (" +
                                             std::to_string(counts.locked) + " trade-locked)");
  }
  return batch;
}

LisskinsSource::LisskinsSource(sdk::Host& host) : host_(host) {
  const auto& config = host.config();
  url_ = config.getString("url", kDefaultUrl);
  if (url_.rfind("http://", 0) != 0 && url_.rfind("https://", 0) != 0) {
    throw std::invalid_argument("url: must be an http:// or https:// address, e.g. " +
                                std::string(kDefaultUrl));
  }
  const std::string statistic = config.getString("price_statistic", "p05");
  const auto parsed = parsePriceStatistic(statistic);
  if (!parsed) {
    throw std::invalid_argument("price_statistic: one of min, p05, median; got \"" + statistic +
                                "\"");
  }
  statistic_ = *parsed;
  max_bytes_ = static_cast<std::size_t>(
      support::positiveKey(config, "max_bytes", kDefaultMaxBytes, std::int64_t{1} << 34));
  timeout_ = std::chrono::seconds(
      support::positiveKey(config, "request_timeout_seconds", kDefaultTimeoutSeconds, 3600));
}

sdk::PollReport LisskinsSource::poll() {
  sdk::HttpRequest request;
  request.url = url_;
  request.headers = {{"Accept-Encoding", "gzip, br"}, {"Accept", "application/json"}};
  request.timeout = timeout_;
  request.max_body_bytes = max_bytes_;
  ExportReader reader(host_.clock().nowUnixSeconds());
  ExportSink sink(reader);
  const sdk::HttpResponse response = host_.http().stream(request, sink);
  // The reader's verdict first: a malformed document stops the download, which the client
  // then reports as a transport error.
  if (sink.malformed()) {
    sdk::PollReport refused = reader.finish(statistic_);
    host_.logger().warn("lisskins: " + refused.status.message());
    return refused;
  }
  if (auto failed = support::failureOf(response, host_.clock().nowUnixSeconds())) {
    host_.logger().warn("lisskins export: " + failed->status.message());
    sdk::PollReport refused;
    refused.status = std::move(failed->status);
    refused.retry_after_seconds = failed->retry_after_seconds;
    return refused;
  }
  sdk::PollReport batch = reader.finish(statistic_);
  const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - sink.headAt());
  if (!batch.status.isOk()) {
    host_.logger().warn("lisskins: " + batch.status.message());
    return batch;
  }
  host_.logger().info("lisskins: " + std::to_string(batch.quotes.size()) + " items from " +
                      std::to_string(reader.counts().listings) + " listings (" +
                      std::to_string(reader.counts().skipped) + " skipped, " +
                      std::to_string(reader.counts().locked) + " of them trade-locked), " +
                      std::to_string(reader.bytesRead()) + " bytes read and parsed in " +
                      std::to_string(elapsed.count()) + " ms");
  return batch;
}

}  // namespace skinpulse::plugins::lisskins
