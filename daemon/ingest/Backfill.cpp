#include "ingest/Backfill.hpp"

#include "ingest/BackfillReader.hpp"
#include "ingest/Normaliser.hpp"
#include "ingest/PointSpool.hpp"
#include "quality/Outliers.hpp"

#include <chrono>
#include <limits>

namespace skinpulse::ingest {
namespace {

// Points judged and written per chunk: each chunk copies the latest-price snapshot's
// item index once, so chunks are large.
constexpr std::size_t kChunkPoints = 128 * 1024;
constexpr std::size_t kProgressEvery = 16 * 1024;

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

void count(BackfillResult& result, std::string_view reason, std::size_t line) {
  const auto [it, inserted] = result.rejected.try_emplace(std::string(reason), 0);
  ++it->second;
  if (inserted) result.first_line[it->first] = line;
}

}  // namespace

namespace {

// Reads every line into `spool`; the counts go to `result`.
void readLines(std::istream& in, const catalog::CatalogSnapshot& catalog, std::int64_t now,
               const BackfillProgressFn& progress, PointSpool& spool, BackfillResult& result) {
  BackfillProgress state;
  BackfillReader reader(in);
  NormalisedBatch batch;  // reused: one point at a time
  sdk::VariantQuote quote;
  quote.price.form = sdk::QuotedPrice::Form::kCents;
  std::string source;
  for (auto status = reader.next(); status != BackfillReader::Status::kEnd;
       status = reader.next()) {
    ++result.read;
    if (status == BackfillReader::Status::kRejected) {
      count(result, reader.reason(), reader.lineNumber());
    } else {
      const BackfillLine& line = reader.line();
      quote.market_hash_name.assign(line.name);  // reuses the capacity: no allocation
      quote.price.cents = line.price;
      quote.volume = line.volume;
      quote.observed_at = line.time;
      quote.kind = line.kind;
      quote.listings = line.listings;
      quote.variant.assign(line.variant);
      source.assign(line.source);
      normaliseQuote(NormaliseInput{source, now, sdk::PriceKind::kAsk, false}, quote, catalog,
                     batch);
      if (!batch.points.empty()) {
        spool.add(batch.points.back());
        batch.points.clear();
      } else {
        // One reason was counted: the first line of a reason seen for the first time.
        for (const auto& [reason, n] : batch.rejected) {
          if (result.first_line.try_emplace(reason, reader.lineNumber()).second) break;
        }
      }
      batch.unknown_names.clear();  // auto_add is the daemon's, not the backfill's
      batch.images.clear();
    }
    if (progress && result.read % kProgressEvery == 0) {
      state.bytes = reader.bytesRead();
      state.lines = result.read;
      state.points = spool.size();
      progress(state);
    }
  }
  for (const auto& [reason, n] : batch.rejected) result.rejected[reason] += n;
}

}  // namespace

std::int64_t backfillRawFrom(std::int64_t now, int raw_retention_days) {
  if (raw_retention_days <= 0) return std::numeric_limits<std::int64_t>::min();
  const std::int64_t day = store::rollupSeconds(store::RollupLevel::kDay);
  return store::bucketStart(now - std::int64_t{raw_retention_days} * day, day);
}

BackfillResult backfill(std::istream& in, const catalog::CatalogSnapshot& catalog,
                        store::PriceStore& prices, std::int64_t now,
                        const BackfillOptions& options) {
  const auto* outliers = options.outliers;
  const auto& progress = options.progress;
  BackfillResult result;
  auto started = std::chrono::steady_clock::now();

  // 1. Read: every line checked and normalised as it comes, kept as a compact record.
  auto spool = std::make_unique<PointSpool>();
  readLines(in, catalog, now, progress, *spool, result);
  if (options.refresh_catalog && result.rejected.count("not in catalogue") > 0) {
    if (const auto newer = options.refresh_catalog()) {
      in.clear();
      if (in.seekg(0)) {
        result = BackfillResult{};
        spool = std::make_unique<PointSpool>();
        readLines(in, *newer, now, progress, *spool, result);
      }
    }
  }
  result.read_ms = msSince(started);

  // 2. Latest prices: the outlier rules judge the first points on top of them.
  started = std::chrono::steady_clock::now();
  std::shared_ptr<const prices::LatestPrices::Snapshot> latest;
  if (outliers != nullptr && spool->size() > 0) {
    prices::LatestPrices stored;
    stored.reset(prices.latestPerItemSource());
    latest = stored.snapshot();
  }
  result.latest_ms = msSince(started);

  // 3. Write: in time order (then source), as the cycles would have seen the points, one
  // transaction for all of them. Its revision makes a running daemon reload once.
  started = std::chrono::steady_clock::now();
  BackfillProgress state;
  state.stage = BackfillProgress::Stage::kWriting;
  state.points = spool->size();
  const auto writer = prices.openBackfill(backfillRawFrom(now, options.raw_retention_days));
  spool->drain(kChunkPoints, [&](std::vector<store::PricePoint>& chunk) {
    if (latest) {
      quality::OutlierJudge judge(outliers->freshness(), outliers->outlierFactor(), chunk);
      latest = prices::LatestPrices::foldInto(*latest, chunk, judge.hook());
      writer->clearOutliers(judge.confirmed());
    }
    writer->add(chunk);
    state.written += chunk.size();
    if (progress) progress(state);
  });
  result.write_ms = msSince(started);
  started = std::chrono::steady_clock::now();
  result.stored = writer->finish();
  result.commit_ms = msSince(started);
  result.duplicates = spool->size() - result.stored;
  return result;
}

}  // namespace skinpulse::ingest
