#pragma once

// CostCsvReader: a strict RFC 4180 reader for the cost-basis upload (POST
// /api/v1/portfolio/cost-basis.csv, docs/api.md §23.3). Our own, small and fuzzed
// (tests/fuzz/targets/cost_csv.cpp): Debian's C CSV libraries are lenient by default and
// unmaintained upstream, and a refusal must name the line it is about.
//
// What it accepts: UTF-8 (a leading byte-order mark is skipped; no NUL), records ending in
// CRLF or LF (the last one may end the text), fields separated by ',', a field either
// unquoted (no '"', ',', CR or LF) or quoted ('"' ... '"', with '""' for a quote, and CR
// and LF kept as they are). Empty lines are skipped. The first record is the header; every
// record has as many fields as the header. Anything else is InvalidCsv, naming the line.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::portfolio {

/// The text is not a CSV file this reader takes; what() is "line N: <why>".
class InvalidCsv : public std::runtime_error {
 public:
  InvalidCsv(std::size_t line, const std::string& why)
      : std::runtime_error("line " + std::to_string(line) + ": " + why), line_(line) {}
  /// 1-based line of the text the problem is on (a quoted field's first line).
  std::size_t line() const { return line_; }

 private:
  std::size_t line_;
};

struct CsvRecord {
  std::size_t line = 0;  ///< 1-based line the record starts on
  std::vector<std::string> fields;
};

struct CsvTable {
  CsvRecord header;
  std::vector<CsvRecord> records;  ///< the data records, in file order
};

struct CsvLimits {
  std::size_t max_records = 10'000;  ///< data records, the header not counted
  std::size_t max_fields = 100;      ///< per record
};

/// Reads `text` whole. Throws InvalidCsv on the first problem: invalid UTF-8 or a NUL,
/// a quote inside an unquoted field, text after a closing quote, a quoted field that never
/// ends, a lone CR outside quotes, no header, a record whose field count differs from the
/// header's, more records or fields than `limits`.
CsvTable readCsv(std::string_view text, const CsvLimits& limits = {});

}  // namespace skinpulse::portfolio
