#include "StreamJsonParser.hpp"

namespace skinpulse::plugins::lisskins {

namespace {

constexpr std::size_t kMaxNumber = 64;
constexpr std::size_t kMaxLiteral = 5;  // "false"

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isNumberChar(char c) {
  return isDigit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}
bool isLetter(char c) { return c >= 'a' && c <= 'z'; }

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// RFC 8259 §6: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool isJsonNumber(std::string_view t) {
  std::size_t i = 0;
  if (i < t.size() && t[i] == '-') ++i;
  if (i >= t.size()) return false;
  if (t[i] == '0') {
    ++i;
  } else if (isDigit(t[i])) {
    while (i < t.size() && isDigit(t[i])) ++i;
  } else {
    return false;
  }
  if (i < t.size() && t[i] == '.') {
    ++i;
    const std::size_t digits = i;
    while (i < t.size() && isDigit(t[i])) ++i;
    if (i == digits) return false;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    const std::size_t digits = i;
    while (i < t.size() && isDigit(t[i])) ++i;
    if (i == digits) return false;
  }
  return i == t.size();
}

}  // namespace

StreamJsonParser::StreamJsonParser(JsonHandler& handler, Limits limits)
    : handler_(handler), limits_(limits) {
  token_.reserve(limits_.max_string < 256 ? 256 : limits_.max_string);
}

bool StreamJsonParser::fail(std::string_view why) {
  if (error_.empty()) {
    error_ = std::string(why) + " at byte " + std::to_string(offset_);
  }
  return false;
}

bool StreamJsonParser::feed(std::string_view piece) {
  if (failed()) return false;
  const char* p = piece.data();
  const char* const end = p + piece.size();
  while (p < end) {
    switch (lex_) {
      case Lex::kBetween: {
        const char c = *p;
        if (!between(c)) return false;
        ++p;
        ++offset_;
        break;
      }
      case Lex::kString: {
        // The bulk of the document: copy runs of plain characters at once.
        const char* run = p;
        while (p < end && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20) ++p;
        appendDecoded(std::string_view(run, static_cast<std::size_t>(p - run)));
        offset_ += static_cast<std::uint64_t>(p - run);
        if (p == end) break;
        const char c = *p;
        if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string");
        ++p;
        ++offset_;
        if (c == '\\') {
          lex_ = Lex::kEscape;
        } else if (!endString()) {
          return false;
        }
        break;
      }
      case Lex::kEscape: {
        const char c = *p;
        ++p;
        ++offset_;
        char decoded = 0;
        switch (c) {
          case '"':
          case '\\':
          case '/':
            decoded = c;
            break;
          case 'b':
            decoded = '\b';
            break;
          case 'f':
            decoded = '\f';
            break;
          case 'n':
            decoded = '\n';
            break;
          case 'r':
            decoded = '\r';
            break;
          case 't':
            decoded = '\t';
            break;
          case 'u':
            lex_ = Lex::kUnicode;
            unicode_ = 0;
            unicode_digits_ = 0;
            continue;
          default:
            return fail("invalid escape in a string");
        }
        if (pending_high_ != 0) {
          appendCodePoint(0xFFFD);  // a high surrogate without its low half
          pending_high_ = 0;
        }
        appendDecoded(std::string_view(&decoded, 1));
        lex_ = Lex::kString;
        break;
      }
      case Lex::kUnicode: {
        const int value = hexValue(*p);
        if (value < 0) return fail("invalid \\u escape");
        ++p;
        ++offset_;
        unicode_ = (unicode_ << 4) | static_cast<std::uint32_t>(value);
        if (++unicode_digits_ == 4 && !unicodeEscapeDone()) return false;
        break;
      }
      case Lex::kNumber: {
        const char* run = p;
        while (p < end && isNumberChar(*p)) ++p;
        const auto length = static_cast<std::size_t>(p - run);
        if (token_.size() + length > kMaxNumber) {
          overlong_ = true;
          if (token_.size() < kMaxNumber) token_.append(run, kMaxNumber - token_.size());
        } else {
          token_.append(run, length);
        }
        offset_ += length;
        if (p == end) break;
        if (!endNumber()) return false;
        break;  // the character that ended it is read as between tokens
      }
      case Lex::kLiteral: {
        const char c = *p;
        if (isLetter(c)) {
          if (token_.size() >= kMaxLiteral) return fail("unknown literal");
          token_.push_back(c);
          ++p;
          ++offset_;
          break;
        }
        if (!endLiteral()) return false;
        break;
      }
    }
  }
  return true;
}

bool StreamJsonParser::finish() {
  if (failed()) return false;
  // A number or literal at the very end of the document ends with it.
  if (lex_ == Lex::kNumber && !endNumber()) return false;
  if (lex_ == Lex::kLiteral && !endLiteral()) return false;
  if (lex_ != Lex::kBetween || expect_ != Expect::kDone) {
    return fail(offset_ == 0 ? "empty document" : "document cut short");
  }
  return true;
}

bool StreamJsonParser::between(char c) {
  if (isSpace(c)) return true;
  switch (expect_) {
    case Expect::kValue:
    case Expect::kValueOrEnd:
      if (c == '{') return openContainer('o');
      if (c == '[') return openContainer('a');
      if (c == ']' && expect_ == Expect::kValueOrEnd) return closeContainer('a');
      if (c == '"') {
        lex_ = Lex::kString;
        string_is_key_ = false;
        token_.clear();
        overlong_ = false;
        return true;
      }
      if (c == '-' || isDigit(c)) {
        lex_ = Lex::kNumber;
        token_.assign(1, c);
        overlong_ = false;
        return true;
      }
      if (isLetter(c)) {
        lex_ = Lex::kLiteral;
        token_.assign(1, c);
        return true;
      }
      return fail("a value expected");
    case Expect::kKeyOrEnd:
      if (c == '}') return closeContainer('o');
      [[fallthrough]];
    case Expect::kKey:
      if (c != '"') return fail("a member name expected");
      lex_ = Lex::kString;
      string_is_key_ = true;
      token_.clear();
      overlong_ = false;
      return true;
    case Expect::kColon:
      if (c != ':') return fail("':' expected");
      expect_ = Expect::kValue;
      return true;
    case Expect::kCommaOrEnd:
      if (c == ',') {
        expect_ = stack_.back() == 'o' ? Expect::kKey : Expect::kValue;
        return true;
      }
      if (c == '}' || c == ']') return closeContainer(c == '}' ? 'o' : 'a');
      return fail("',' or the end of a container expected");
    case Expect::kDone:
      return fail("data after the document");
  }
  return fail("parser state");
}

bool StreamJsonParser::openContainer(char kind) {
  if (stack_.size() >= limits_.max_depth) return fail("nested too deep");
  stack_.push_back(kind);
  if (kind == 'o') {
    expect_ = Expect::kKeyOrEnd;
    handler_.onStartObject();
  } else {
    expect_ = Expect::kValueOrEnd;
    handler_.onStartArray();
  }
  return true;
}

bool StreamJsonParser::closeContainer(char kind) {
  if (stack_.empty() || stack_.back() != kind) return fail("mismatched end of a container");
  stack_.pop_back();
  if (kind == 'o') {
    handler_.onEndObject();
  } else {
    handler_.onEndArray();
  }
  afterValue();
  return true;
}

void StreamJsonParser::afterValue() {
  expect_ = stack_.empty() ? Expect::kDone : Expect::kCommaOrEnd;
}

bool StreamJsonParser::endString() {
  if (pending_high_ != 0) {
    appendCodePoint(0xFFFD);
    pending_high_ = 0;
  }
  lex_ = Lex::kBetween;
  if (string_is_key_) {
    handler_.onKey(token_, overlong_);
    expect_ = Expect::kColon;
  } else {
    handler_.onScalar(JsonScalar{JsonScalar::Type::kString, token_, overlong_});
    afterValue();
  }
  return true;
}

bool StreamJsonParser::endNumber() {
  lex_ = Lex::kBetween;
  // An overlong number is cut, so its grammar cannot be checked; it is flagged instead.
  if (!overlong_ && !isJsonNumber(token_)) return fail("invalid number");
  handler_.onScalar(JsonScalar{JsonScalar::Type::kNumber, token_, overlong_});
  afterValue();
  return true;
}

bool StreamJsonParser::endLiteral() {
  lex_ = Lex::kBetween;
  JsonScalar value;
  value.text = token_;
  if (token_ == "true") {
    value.type = JsonScalar::Type::kTrue;
  } else if (token_ == "false") {
    value.type = JsonScalar::Type::kFalse;
  } else if (token_ == "null") {
    value.type = JsonScalar::Type::kNull;
  } else {
    return fail("unknown literal");
  }
  handler_.onScalar(value);
  afterValue();
  return true;
}

void StreamJsonParser::appendDecoded(std::string_view bytes) {
  if (bytes.empty()) return;
  if (pending_high_ != 0) {
    appendCodePoint(0xFFFD);
    pending_high_ = 0;
  }
  const std::size_t room =
      token_.size() < limits_.max_string ? limits_.max_string - token_.size() : 0;
  if (bytes.size() > room) {
    overlong_ = true;
    token_.append(bytes.substr(0, room));
  } else {
    token_.append(bytes);
  }
}

bool StreamJsonParser::unicodeEscapeDone() {
  lex_ = Lex::kString;
  const std::uint32_t unit = unicode_;
  if (unit >= 0xD800 && unit <= 0xDBFF) {
    if (pending_high_ != 0) appendCodePoint(0xFFFD);
    pending_high_ = unit;
    return true;
  }
  if (unit >= 0xDC00 && unit <= 0xDFFF) {
    if (pending_high_ == 0) {
      appendCodePoint(0xFFFD);  // a low half alone
      return true;
    }
    const std::uint32_t code_point = 0x10000 + ((pending_high_ - 0xD800) << 10) + (unit - 0xDC00);
    pending_high_ = 0;
    appendCodePoint(code_point);
    return true;
  }
  if (pending_high_ != 0) {
    appendCodePoint(0xFFFD);
    pending_high_ = 0;
  }
  appendCodePoint(unit);
  return true;
}

void StreamJsonParser::appendCodePoint(std::uint32_t cp) {
  char utf8[4];
  std::size_t n = 0;
  if (cp < 0x80) {
    utf8[n++] = static_cast<char>(cp);
  } else if (cp < 0x800) {
    utf8[n++] = static_cast<char>(0xC0 | (cp >> 6));
    utf8[n++] = static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    utf8[n++] = static_cast<char>(0xE0 | (cp >> 12));
    utf8[n++] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    utf8[n++] = static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    utf8[n++] = static_cast<char>(0xF0 | (cp >> 18));
    utf8[n++] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    utf8[n++] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    utf8[n++] = static_cast<char>(0x80 | (cp & 0x3F));
  }
  // Through the cap like any other bytes, without flushing a pending surrogate.
  const std::uint32_t keep = pending_high_;
  pending_high_ = 0;
  appendDecoded(std::string_view(utf8, n));
  pending_high_ = keep;
}

}  // namespace skinpulse::plugins::lisskins
