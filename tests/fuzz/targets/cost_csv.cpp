// The cost-basis upload's CSV reader (POST /api/v1/portfolio/cost-basis.csv, docs/api.md
// §23.3) and its cell readers. Any bytes are read whole or refused with InvalidCsv naming
// a line inside the text; a read table is rectangular, its line numbers rise, and written
// back with every field quoted it reads back to the same fields. Each cell read as a
// quantity, an amount or a date is within the documented ranges.
#include "portfolio/CostCsvCells.hpp"
#include "portfolio/CostCsvReader.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace skinpulse;
using namespace skinpulse::portfolio;

namespace {

std::string quotedCsv(const CsvTable& table) {
  std::string out;
  const auto write = [&](const CsvRecord& record) {
    for (std::size_t i = 0; i < record.fields.size(); ++i) {
      if (i > 0) out += ',';
      out += '"';
      for (const char c : record.fields[i]) {
        if (c == '"') out += '"';
        out += c;
      }
      out += '"';
    }
    out += "\r\n";
  };
  write(table.header);
  for (const auto& record : table.records) write(record);
  return out;
}

void checkCells(const CsvRecord& record) {
  for (const auto& field : record.fields) {
    const std::string text = csvCellText(field);
    if (text.size() > field.size()) std::abort();
    if (const auto quantity = csvQuantity(field)) {
      if (*quantity < 1 || *quantity > kMaxCsvQuantity) std::abort();
    }
    for (int exponent = 0; exponent <= 3; ++exponent) {
      if (const auto amount = csvAmount(field, exponent)) {
        if (*amount < 0) std::abort();
      }
    }
    (void)csvDate(field);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const CsvLimits limits{50, 20};
  CsvTable table;
  try {
    table = readCsv(text, limits);
  } catch (const InvalidCsv& e) {
    const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    if (e.line() < 1 || e.line() > lines + 1) std::abort();
    return 0;
  }
  const std::size_t width = table.header.fields.size();
  if (width == 0 || width > limits.max_fields || table.records.size() > limits.max_records) {
    std::abort();
  }
  std::size_t line = table.header.line;
  for (const auto& record : table.records) {
    if (record.fields.size() != width || record.line <= line) std::abort();
    line = record.line;
  }
  checkCells(table.header);
  for (const auto& record : table.records) checkCells(record);

  const CsvTable again = readCsv(quotedCsv(table), limits);
  if (again.header.fields != table.header.fields || again.records.size() != table.records.size()) {
    std::abort();
  }
  for (std::size_t i = 0; i < table.records.size(); ++i) {
    if (again.records[i].fields != table.records[i].fields) std::abort();
  }
  return 0;
}
