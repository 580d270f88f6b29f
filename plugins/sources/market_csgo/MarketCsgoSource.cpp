#include "MarketCsgoSource.hpp"

#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

namespace skinpulse::plugins::market_csgo {
namespace {

constexpr std::size_t kMaxBytes = 64u * 1024u * 1024u;

bool higher(const sdk::QuotedPrice& a, const sdk::QuotedPrice& b) {
  using Form = sdk::QuotedPrice::Form;
  return a.form == Form::kMajor && b.form == Form::kMajor && a.major > b.major;
}

}  // namespace

support::Mapping askMapping() {
  // Dollars as strings ("0.512"); `volume` counts listings, so it goes to listings.
  return support::listMapping({.items = "/items",
                               .price = "price",
                               .unit = support::PriceUnit::kMajor,
                               .listings = "volume",
                               .time = "#/time",
                               .success = true});
}

support::Mapping bidMapping() {
  support::Mapping m = support::listMapping({.items = "/items",
                                             .price = "buy_order",
                                             .unit = support::PriceUnit::kMajor,
                                             .time = "#/time",
                                             .success = true});
  m.shape = support::ItemsShape::kObject;
  m.name_from_key = false;  // keyed by "classid_instanceid"
  m.kind = sdk::PriceKind::kBid;
  return m;
}

std::vector<sdk::VariantQuote> bestBids(std::vector<sdk::VariantQuote> bids) {
  std::vector<sdk::VariantQuote> best;
  std::unordered_map<std::string, std::size_t> index;
  index.reserve(bids.size());
  for (auto& bid : bids) {
    const auto [it, inserted] = index.try_emplace(bid.market_hash_name, best.size());
    if (inserted) {
      best.push_back(std::move(bid));
    } else if (higher(bid.price, best[it->second].price)) {
      best[it->second] = std::move(bid);
    }
  }
  return best;
}

MarketCsgoSource::MarketCsgoSource(sdk::Host& host)
    : host_(host),
      asks_(support::readListRequest(host.config(), {"market_csgo", "https://market.csgo.com",
                                                     "/api/v2/prices/USD.json", kMaxBytes})),
      bids_(support::readListRequest(host.config(),
                                     {"market_csgo", "https://market.csgo.com",
                                      "/api/v2/prices/class_instance/USD.json", kMaxBytes})) {
  const std::string bids = host.config().getString("bids", "true");
  if (bids != "true" && bids != "false") {
    throw std::invalid_argument("bids: expected true or false, got \"" + bids + "\"");
  }
  with_bids_ = bids == "true";
}

sdk::PollReport MarketCsgoSource::poll() {
  sdk::PollReport asks = support::pollList(host_, asks_, askMapping());
  if (!with_bids_) return asks;
  sdk::PollReport bids = support::pollList(host_, bids_, bidMapping());
  if (!asks.status.isOk() && !bids.status.isOk()) {
    // Nothing read well: the asks' failure is the poll's (its Retry-After first).
    asks.rows_read += bids.rows_read;
    for (const auto& [reason, n] : bids.skipped) support::addSkip(asks.skipped, reason, n);
    asks.failed_parts.push_back({"asks", asks.status});
    asks.failed_parts.push_back({"bids", bids.status});
    if (!asks.retry_after_seconds) asks.retry_after_seconds = bids.retry_after_seconds;
    return asks;
  }
  if (bids.status.isOk()) bids.quotes = bestBids(std::move(bids.quotes));
  sdk::PollReport report;
  support::addPart(report, std::move(asks), "asks");
  support::addPart(report, std::move(bids), "bids");
  for (const auto& part : report.failed_parts) {
    host_.logger().warn("market_csgo: the " + part.part + " list failed (" + part.status.message() +
                        "); the other list's prices are kept");
  }
  return report;
}

}  // namespace skinpulse::plugins::market_csgo
