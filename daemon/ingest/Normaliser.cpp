#include "ingest/Normaliser.hpp"

#include "ingest/PriceParser.hpp"

namespace skinpulse {
namespace {

constexpr std::int64_t kFutureTolerance = 300;

bool isSpace(std::string_view s, std::size_t i, std::size_t& width) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
    width = 1;
    return true;
  }
  if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xA0) {
    width = 2;
    return true;
  }
  return false;
}

}  // namespace

std::string_view trimName(std::string_view name) {
  std::size_t begin = 0;
  std::size_t width = 0;
  while (begin < name.size() && isSpace(name, begin, width)) begin += width;
  std::size_t end = name.size();
  while (end > begin) {
    if (name[end - 1] == ' ' || name[end - 1] == '\t' || name[end - 1] == '\r' ||
        name[end - 1] == '\n') {
      --end;
    } else if (end - begin >= 2 && static_cast<unsigned char>(name[end - 2]) == 0xC2 &&
               static_cast<unsigned char>(name[end - 1]) == 0xA0) {
      end -= 2;
    } else {
      break;
    }
  }
  return name.substr(begin, end - begin);
}

NormalisedBatch normalise(const std::string& source, std::int64_t poll_time,
                          const std::vector<sdk::Observation>& observations,
                          const CatalogSnapshot& catalog) {
  NormalisedBatch batch;
  batch.points.reserve(observations.size());
  for (const auto& observation : observations) {
    const std::string_view name = trimName(observation.market_hash_name);
    if (name.empty()) {
      ++batch.rejected["empty market_hash_name"];
      continue;
    }
    const auto* item = catalog.findByName(name);
    if (item == nullptr) {
      ++batch.rejected["not in catalogue"];
      batch.unknown_names.emplace_back(name);
      continue;
    }
    const auto cents = toCents(observation.price);
    if (!cents) {
      ++batch.rejected["price unreadable or not positive"];
      continue;
    }
    if (observation.volume < 0) {
      ++batch.rejected["negative volume"];
      continue;
    }
    const std::int64_t time = observation.observed_at.value_or(poll_time);
    if (time > poll_time + kFutureTolerance || time <= 0) {
      ++batch.rejected["time in the future or invalid"];
      continue;
    }
    batch.points.push_back(PricePoint{item->record.id, source, time, *cents, observation.volume});
  }
  return batch;
}

}  // namespace skinpulse
