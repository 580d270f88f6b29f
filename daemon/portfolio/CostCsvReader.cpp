#include "portfolio/CostCsvReader.hpp"

#include <cstdint>

namespace skinpulse::portfolio {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

// Length of the well-formed UTF-8 sequence at `i` (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 when it is not one.
std::size_t csvUtf8Length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(s[k]); };
  const std::uint8_t lead = byte(i);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  std::uint8_t low = 0x80, high = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + length > s.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

// Every byte is checked before any field is read: a refusal names the first bad line.
void checkCsvEncoding(std::string_view text) {
  std::size_t line = 1;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '\0') throw InvalidCsv(line, "a NUL byte; the file must be UTF-8 text");
    if (text[i] == '\n') ++line;
    const std::size_t length = csvUtf8Length(text, i);
    if (length == 0) throw InvalidCsv(line, "not UTF-8 text (save the file as UTF-8)");
    i += length;
  }
}

class CsvScanner {
 public:
  CsvScanner(std::string_view text, const CsvLimits& limits) : text_(text), limits_(limits) {}

  CsvTable read() {
    CsvTable table;
    bool have_header = false;
    while (pos_ < text_.size()) {
      if (atLineEnd()) {  // an empty line
        skipLineEnd();
        continue;
      }
      CsvRecord record = readRecord();
      if (!have_header) {
        table.header = std::move(record);
        have_header = true;
        continue;
      }
      if (record.fields.size() != table.header.fields.size()) {
        throw InvalidCsv(record.line, std::to_string(record.fields.size()) +
                                          " fields where the header has " +
                                          std::to_string(table.header.fields.size()));
      }
      if (table.records.size() == limits_.max_records) {
        throw InvalidCsv(record.line, "more than " + std::to_string(limits_.max_records) + " rows");
      }
      table.records.push_back(std::move(record));
    }
    if (!have_header) throw InvalidCsv(line_, "no header row");
    return table;
  }

 private:
  bool atLineEnd() const {
    return text_[pos_] == '\n' ||
           (text_[pos_] == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n');
  }

  void skipLineEnd() {
    pos_ += text_[pos_] == '\r' ? 2 : 1;
    ++line_;
  }

  // One record from pos_ (not at a line end), through its line end or the end of text.
  CsvRecord readRecord() {
    CsvRecord record;
    record.line = line_;
    while (true) {
      if (record.fields.size() == limits_.max_fields) {
        throw InvalidCsv(record.line,
                         "more than " + std::to_string(limits_.max_fields) + " fields");
      }
      record.fields.push_back(pos_ < text_.size() && text_[pos_] == '"' ? quotedField()
                                                                        : plainField());
      if (pos_ >= text_.size()) return record;
      if (text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (atLineEnd()) {
        skipLineEnd();
        return record;
      }
      throw InvalidCsv(line_, "a carriage return that does not end a line");
    }
  }

  std::string plainField() {
    const std::size_t start = pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ',' || c == '\n' || c == '\r') break;
      if (c == '"') {
        throw InvalidCsv(line_, "a quote inside an unquoted field (quote the whole field)");
      }
      ++pos_;
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  std::string quotedField() {
    const std::size_t opened_on = line_;
    ++pos_;  // the opening quote
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) throw InvalidCsv(opened_on, "a quoted field that never ends");
      const char c = text_[pos_++];
      if (c == '"') {
        if (pos_ < text_.size() && text_[pos_] == '"') {
          out += '"';
          ++pos_;
          continue;
        }
        if (pos_ < text_.size() && text_[pos_] != ',' && !atLineEnd()) {
          throw InvalidCsv(line_, "text after a closing quote");
        }
        return out;
      }
      if (c == '\n') ++line_;
      out += c;
    }
  }

  std::string_view text_;
  const CsvLimits& limits_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
};

}  // namespace

CsvTable readCsv(std::string_view text, const CsvLimits& limits) {
  checkCsvEncoding(text);
  if (text.substr(0, kByteOrderMark.size()) == kByteOrderMark) {
    text.remove_prefix(kByteOrderMark.size());
  }
  return CsvScanner(text, limits).read();
}

}  // namespace skinpulse::portfolio
