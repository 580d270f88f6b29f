#pragma once

// An incremental (push, SAX-style) JSON parser: the document arrives in pieces of any size,
// split anywhere (inside a string, an escape, a number), and each token goes to a handler
// as soon as it is complete. It holds only the nesting stack and the token being read, so a
// 173 MB export costs what the handler keeps, not the document.
//
// Limits: nesting deeper than `max_depth` is an error (a body of a million brackets fails
// at once, without recursion); a string longer than `max_string` decoded bytes or a number
// longer than 64 characters is still read to its end, but reaches the handler cut and
// flagged `overlong`, so one hostile value costs one skipped row, not the document. Any
// grammar error, and a document that ends early (finish()), fails the whole document.
// Never throws.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::plugins::lisskins {

/// A complete scalar value. `text` is the decoded string, the number as written, or the
/// literal; it is valid only during the call.
struct JsonScalar {
  enum class Type { kString, kNumber, kTrue, kFalse, kNull };
  Type type = Type::kNull;
  std::string_view text;
  bool overlong = false;  ///< cut at the parser's limit: the value is not usable
};

class JsonHandler {
 public:
  virtual void onStartObject() = 0;
  virtual void onEndObject() = 0;
  virtual void onStartArray() = 0;
  virtual void onEndArray() = 0;
  /// An object member's key; the member's value follows.
  virtual void onKey(std::string_view key, bool overlong) = 0;
  virtual void onScalar(const JsonScalar& value) = 0;

 protected:
  ~JsonHandler() = default;
};

class StreamJsonParser {
 public:
  struct Limits {
    std::size_t max_depth = 32;
    std::size_t max_string = 4096;
  };

  StreamJsonParser(JsonHandler& handler, Limits limits);

  /// Reads the next piece. False once the document is malformed (and from then on).
  bool feed(std::string_view piece);
  /// The document ended: true when it was exactly one complete value (whitespace around it
  /// allowed); false when it was cut short, empty or malformed.
  bool finish();

  bool failed() const { return !error_.empty(); }
  /// Why it failed, with the byte offset; empty while it has not.
  const std::string& error() const { return error_; }
  std::uint64_t bytesRead() const { return offset_; }

 private:
  enum class Expect { kValue, kValueOrEnd, kKeyOrEnd, kKey, kColon, kCommaOrEnd, kDone };
  enum class Lex { kBetween, kString, kEscape, kUnicode, kNumber, kLiteral };

  bool fail(std::string_view why);
  bool between(char c);
  bool openContainer(char kind);
  bool closeContainer(char kind);
  void afterValue();
  bool endString();
  bool endNumber();
  bool endLiteral();
  void appendDecoded(std::string_view bytes);
  void appendCodePoint(std::uint32_t code_point);
  bool unicodeEscapeDone();

  JsonHandler& handler_;
  Limits limits_;
  std::vector<char> stack_;  ///< 'o' or 'a' per open container
  Expect expect_ = Expect::kValue;
  Lex lex_ = Lex::kBetween;
  bool string_is_key_ = false;
  bool overlong_ = false;
  std::string token_;
  std::uint32_t unicode_ = 0;
  int unicode_digits_ = 0;
  std::uint32_t pending_high_ = 0;  ///< a \uD800-\uDBFF waiting for its low half
  std::uint64_t offset_ = 0;
  std::string error_;
};

}  // namespace skinpulse::plugins::lisskins
