#pragma once

// BackfillReader: the JSON Lines of `skinpulsectl backfill`, one line at a time from a
// stream (never the whole file), each parsed with simdjson into views of its fields. A
// line that cannot be a price observation is reported with its reason and line number
// and the reader goes on: the caller counts it (docs/operations.md, History).
//
// Hostile input is bounded: a line longer than kMaxLineBytes is skipped unread (its
// bytes are not kept), nesting deeper than kMaxDepth is malformed, a number no 64-bit
// type holds costs its line. A UTF-8 byte order mark before the first line, CRLF line
// ends and blank lines are accepted.

#include "skinpulse/sdk/types.hpp"

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <simdjson.h>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::ingest {

/// One line's observation. The views point into the reader's buffers: valid until the
/// next call of BackfillReader::next().
struct BackfillLine {
  std::string_view name;    ///< market_hash_name as written (the normaliser trims it)
  std::string_view source;  ///< trimmed, 1-64 bytes
  std::int64_t time = 0;
  std::int64_t price = 0;   ///< cents
  std::int64_t volume = 0;  ///< 0 when absent
  std::optional<sdk::PriceKind> kind;
  std::optional<std::int64_t> listings;
  /// The `variant` key, canonical (sdk::kVariantNames; static storage); empty when absent.
  std::string_view variant;
};

class BackfillReader {
 public:
  static constexpr std::size_t kMaxLineBytes = 64 * 1024;
  static constexpr std::size_t kMaxDepth = 16;

  enum class Status { kLine, kRejected, kEnd };

  static constexpr std::size_t kChunkBytes = 1 << 20;

  /// `chunk_bytes`: how much is read from `in` at a time (tests and the fuzz target make
  /// lines cross chunk boundaries with small ones).
  explicit BackfillReader(std::istream& in, std::size_t chunk_bytes = kChunkBytes);

  /// The next non-blank line: kLine (line() holds it), kRejected (reason() says why) or
  /// kEnd once the stream is exhausted.
  Status next();
  const BackfillLine& line() const { return line_; }
  /// A fixed text, the same for every line rejected for the same cause.
  std::string_view reason() const { return reason_; }
  /// The 1-based line number of what next() returned last.
  std::size_t lineNumber() const { return line_number_; }
  /// Bytes consumed from the stream so far (progress).
  std::uint64_t bytesRead() const { return bytes_read_; }

 private:
  bool fill();
  /// The next physical line into text_; false at the end of the stream.
  bool readLine();
  void parse();

  std::istream& in_;
  std::vector<char> chunk_;
  std::size_t chunk_pos_ = 0;
  std::size_t chunk_end_ = 0;
  std::string text_;  ///< the current line, padded for simdjson
  bool too_long_ = false;
  bool first_ = true;
  std::size_t line_number_ = 0;
  std::uint64_t bytes_read_ = 0;
  simdjson::dom::parser parser_;
  BackfillLine line_;
  std::string_view reason_;
};

}  // namespace skinpulse::ingest
