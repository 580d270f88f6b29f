#include "ingest/BackfillReader.hpp"

#include "skinpulse/sdk/variants.hpp"

#include "common/Time.hpp"

#include <algorithm>
#include <cstring>

namespace skinpulse::ingest {
namespace {

constexpr std::size_t kMaxSourceBytes = 64;

// The reasons of the line-based backfill before it (tests and scripts count them).
constexpr std::string_view kMalformed = "malformed JSON";
constexpr std::string_view kWrongType = "field of the wrong type";
constexpr std::string_view kBadSource = "missing or overlong source";
constexpr std::string_view kBadTime = "bad time";
constexpr std::string_view kBadPrice = "price not an integer number of cents";
constexpr std::string_view kBadVolume = "volume not an integer";
constexpr std::string_view kBadKind = "kind not ask, bid, sale or reference";
constexpr std::string_view kBadListings = "listings not an integer";
constexpr std::string_view kTooLong = "line longer than 64 KiB";
constexpr std::string_view kNumberRange = "number out of range";
constexpr std::string_view kBadVariant = "variant not a variant name";

bool blank(std::string_view s) { return s.find_first_not_of(" \t\r\n") == std::string_view::npos; }

std::string_view trim(std::string_view s) {
  const auto begin = s.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(" \t\r\n") - begin + 1);
}

// A JSON integer that fits int64: not a fraction, not 1e3, not a string, not a boolean.
std::optional<std::int64_t> integer(simdjson::dom::element value) {
  std::int64_t out = 0;
  if (!value.is_int64() || value.get_int64().get(out) != simdjson::SUCCESS) return std::nullopt;
  return out;
}

// An absent, null or non-string member reads as "", as the checks below expect.
std::string_view text(const std::optional<simdjson::dom::element>& value) {
  std::string_view out;
  if (!value || value->get_string().get(out) != simdjson::SUCCESS) return {};
  return out;
}

bool present(const std::optional<simdjson::dom::element>& value) {
  return value && !value->is_null();
}

}  // namespace

BackfillReader::BackfillReader(std::istream& in, std::size_t chunk_bytes)
    : in_(in), chunk_(std::max<std::size_t>(chunk_bytes, 1)) {
  text_.reserve(kMaxLineBytes + simdjson::SIMDJSON_PADDING);
  if (parser_.allocate(kMaxLineBytes, kMaxDepth) != simdjson::SUCCESS) throw std::bad_alloc();
}

bool BackfillReader::fill() {
  if (!in_) return false;
  in_.read(chunk_.data(), static_cast<std::streamsize>(chunk_.size()));
  chunk_pos_ = 0;
  chunk_end_ = static_cast<std::size_t>(in_.gcount());
  bytes_read_ += chunk_end_;
  return chunk_end_ > 0;
}

bool BackfillReader::readLine() {
  text_.clear();
  too_long_ = false;
  bool any = false;
  for (;;) {
    if (chunk_pos_ == chunk_end_ && !fill()) return any;
    any = true;
    const char* begin = chunk_.data() + chunk_pos_;
    const std::size_t available = chunk_end_ - chunk_pos_;
    const auto* newline = static_cast<const char*>(std::memchr(begin, '\n', available));
    const std::size_t take =
        newline != nullptr ? static_cast<std::size_t>(newline - begin) : available;
    // Past the limit the bytes are dropped, not kept: a 1 GB line costs no memory.
    if (!too_long_ && text_.size() + take > kMaxLineBytes) {
      too_long_ = true;
      text_.clear();
    }
    if (!too_long_) text_.append(begin, take);
    chunk_pos_ += take;
    if (newline != nullptr) {
      ++chunk_pos_;
      return true;
    }
  }
}

BackfillReader::Status BackfillReader::next() {
  for (;;) {
    if (!readLine()) return Status::kEnd;
    ++line_number_;
    if (first_) {
      first_ = false;
      if (!too_long_ && text_.compare(0, 3, "\xEF\xBB\xBF") == 0) text_.erase(0, 3);
    }
    if (too_long_) {
      reason_ = kTooLong;
      return Status::kRejected;
    }
    if (blank(text_)) continue;
    parse();
    return reason_.empty() ? Status::kLine : Status::kRejected;
  }
}

void BackfillReader::parse() {
  reason_ = {};
  line_ = BackfillLine{};
  // text_ was reserved with the padding simdjson reads past the end; nothing reallocates.
  simdjson::dom::element document;
  const auto error = parser_.parse(text_.data(), text_.size(), false).get(document);
  if (error == simdjson::NUMBER_ERROR) {
    reason_ = kNumberRange;
    return;
  }
  simdjson::dom::object object;
  if (error != simdjson::SUCCESS || document.get_object().get(object) != simdjson::SUCCESS) {
    reason_ = kMalformed;
    return;
  }
  // One pass over the members; a repeated key counts as written last.
  std::optional<simdjson::dom::element> name, source, time, price, volume, kind, listings, variant;
  for (const simdjson::dom::key_value_pair member : object) {
    const std::string_view key = member.key;
    if (key == "market_hash_name") {
      name = member.value;
    } else if (key == "source") {
      source = member.value;
    } else if (key == "time") {
      time = member.value;
    } else if (key == "price") {
      price = member.value;
    } else if (key == "volume") {
      volume = member.value;
    } else if (key == "kind") {
      kind = member.value;
    } else if (key == "listings") {
      listings = member.value;
    } else if (key == "variant") {
      variant = member.value;
    }
  }
  if (!name || name->get_string().get(line_.name) != simdjson::SUCCESS) {
    reason_ = kWrongType;
    return;
  }
  line_.source = trim(text(source));
  if (line_.source.empty() || line_.source.size() > kMaxSourceBytes) {
    reason_ = kBadSource;
    return;
  }
  const auto stamp = time::parseIso8601(text(time));
  if (!stamp) {
    reason_ = kBadTime;
    return;
  }
  line_.time = *stamp;
  const auto cents = present(price) ? integer(*price) : std::nullopt;
  if (!cents) {
    reason_ = kBadPrice;
    return;
  }
  line_.price = *cents;
  if (volume) {  // present but null is refused, as before
    const auto count = integer(*volume);
    if (!count) {
      reason_ = kBadVolume;
      return;
    }
    line_.volume = *count;
  }
  if (present(kind)) {
    line_.kind = sdk::parsePriceKind(text(kind));
    if (!line_.kind) {
      reason_ = kBadKind;
      return;
    }
  }
  if (present(listings)) {
    line_.listings = integer(*listings);
    if (!line_.listings) {
      reason_ = kBadListings;
      return;
    }
  }
  if (present(variant)) {
    // docs/api.md §18: one of sdk::kVariantNames, in any of the spellings markets use.
    const auto named = sdk::variantNamed(text(variant));
    if (!named) {
      reason_ = kBadVariant;
      return;
    }
    line_.variant = *named;
  }
}

}  // namespace skinpulse::ingest
