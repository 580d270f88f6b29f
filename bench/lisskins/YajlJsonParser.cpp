#include "YajlJsonParser.hpp"

#include <yajl/yajl_parse.h>

namespace skinpulse::plugins::lisskins {

namespace {

constexpr std::size_t kMaxNumber = 64;

YajlJsonParser& self(void* context) { return *static_cast<YajlJsonParser*>(context); }

std::string_view textOf(const unsigned char* text, std::size_t length) {
  return std::string_view(reinterpret_cast<const char*>(text), length);
}

int onNull(void* context) { return self(context).scalar(JsonScalar::Type::kNull, "null", 8); }
int onBoolean(void* context, int value) {
  return value ? self(context).scalar(JsonScalar::Type::kTrue, "true", 8)
               : self(context).scalar(JsonScalar::Type::kFalse, "false", 8);
}
int onNumber(void* context, const char* text, std::size_t length) {
  return self(context).scalar(JsonScalar::Type::kNumber, std::string_view(text, length),
                              kMaxNumber);
}
int onString(void* context, const unsigned char* text, std::size_t length) {
  return self(context).scalar(JsonScalar::Type::kString, textOf(text, length), 0);
}
int onKey(void* context, const unsigned char* text, std::size_t length) {
  return self(context).key(textOf(text, length));
}
int onStartMap(void* context) { return self(context).open(true); }
int onEndMap(void* context) { return self(context).close(true); }
int onStartArray(void* context) { return self(context).open(false); }
int onEndArray(void* context) { return self(context).close(false); }

// yajl_integer and yajl_double stay null so yajl_number gets every number as written.
const yajl_callbacks kCallbacks = {onNull,   onBoolean,    nullptr,    nullptr,
                                   onNumber, onString,     onStartMap, onKey,
                                   onEndMap, onStartArray, onEndArray};

}  // namespace

YajlJsonParser::YajlJsonParser(JsonHandler& handler, Limits limits)
    : handler_(handler), limits_(limits), handle_(yajl_alloc(&kCallbacks, nullptr, this)) {
  // Bytes are passed through as StreamJsonParser does (no UTF-8 check); every other
  // option stays strict: no comments, no trailing data, no partial document.
  if (handle_ != nullptr) yajl_config(handle_, yajl_dont_validate_strings, 1);
}

YajlJsonParser::~YajlJsonParser() {
  if (handle_ != nullptr) yajl_free(handle_);
}

int YajlJsonParser::scalar(JsonScalar::Type type, std::string_view text, std::size_t limit) {
  if (limit == 0) limit = limits_.max_string;
  JsonScalar value{type, text, false};
  if (text.size() > limit) {
    value.text = text.substr(0, limit);
    value.overlong = true;
  }
  handler_.onScalar(value);
  return 1;
}

int YajlJsonParser::key(std::string_view text) {
  const bool overlong = text.size() > limits_.max_string;
  handler_.onKey(overlong ? text.substr(0, limits_.max_string) : text, overlong);
  return 1;
}

int YajlJsonParser::open(bool object) {
  if (depth_ >= limits_.max_depth) {
    too_deep_ = true;
    return 0;  // cancels the parse
  }
  ++depth_;
  if (object) {
    handler_.onStartObject();
  } else {
    handler_.onStartArray();
  }
  return 1;
}

int YajlJsonParser::close(bool object) {
  --depth_;
  if (object) {
    handler_.onEndObject();
  } else {
    handler_.onEndArray();
  }
  return 1;
}

bool YajlJsonParser::failWithYajl() {
  const std::size_t consumed = handle_ != nullptr ? yajl_get_bytes_consumed(handle_) : 0;
  const std::uint64_t at = offset_ + consumed;
  std::string why = "out of memory";
  if (too_deep_) {
    why = "nested too deep";
  } else if (handle_ != nullptr) {
    unsigned char* text = yajl_get_error(handle_, 0, nullptr, 0);
    if (text != nullptr) {
      why = reinterpret_cast<const char*>(text);
      yajl_free_error(handle_, text);
      while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
    }
  }
  error_ = why + " at byte " + std::to_string(at);
  return false;
}

bool YajlJsonParser::feed(std::string_view piece) {
  if (failed()) return false;
  if (handle_ == nullptr) return failWithYajl();
  const yajl_status status =
      yajl_parse(handle_, reinterpret_cast<const unsigned char*>(piece.data()), piece.size());
  if (status != yajl_status_ok) return failWithYajl();
  offset_ += piece.size();
  return true;
}

bool YajlJsonParser::finish() {
  if (failed()) return false;
  if (handle_ == nullptr) return failWithYajl();
  if (offset_ == 0) {
    error_ = "empty document at byte 0";
    return false;
  }
  if (yajl_complete_parse(handle_) != yajl_status_ok) {
    const std::uint64_t at = offset_;
    failWithYajl();
    error_ = error_.substr(0, error_.rfind(" at byte ")) + " (document cut short) at byte " +
             std::to_string(at);
    return false;
  }
  return true;
}

}  // namespace skinpulse::plugins::lisskins
