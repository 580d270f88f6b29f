#pragma once

// YajlJsonParser: StreamJsonParser's interface and limits over yajl 2 (libyajl-dev), fed
// in pieces with yajl_parse(). Bench only: it is how we measured yajl against our own
// parser, and why the plugin keeps its own (docs/adr/0013-streaming-bodies.md, "Why our
// own parser"). Depth is counted in the callbacks (yajl has no limit of its own) and a
// too-deep document is cancelled by returning 0; strings and numbers over the limits reach
// the handler cut and flagged `overlong`, as StreamJsonParser's do. What it cannot bound:
// yajl holds a value that spans pieces whole, and lexes it again from its start with
// every new piece (quadratic time in the value's length). Never throws.

#include "StreamJsonParser.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

struct yajl_handle_t;

namespace skinpulse::plugins::lisskins {

class YajlJsonParser {
 public:
  using Limits = StreamJsonParser::Limits;

  YajlJsonParser(JsonHandler& handler, Limits limits);
  ~YajlJsonParser();
  YajlJsonParser(const YajlJsonParser&) = delete;
  YajlJsonParser& operator=(const YajlJsonParser&) = delete;

  bool feed(std::string_view piece);
  bool finish();

  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  std::uint64_t bytesRead() const { return offset_; }

  // yajl's callbacks (C linkage through the context pointer).
  int scalar(JsonScalar::Type type, std::string_view text, std::size_t limit);
  int key(std::string_view text);
  int open(bool object);
  int close(bool object);

 private:
  bool failWithYajl();

  JsonHandler& handler_;
  Limits limits_;
  yajl_handle_t* handle_ = nullptr;
  std::size_t depth_ = 0;
  bool too_deep_ = false;
  std::uint64_t offset_ = 0;
  std::string error_;
};

}  // namespace skinpulse::plugins::lisskins
