#pragma once

// Drives a content decoder the way the client does: the body arrives in pieces.

#include "net/ContentDecoder.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace testdecode {

/// Feeds `encoded` in pieces of `step` bytes, then finishes; kOk with the decoded body in
/// `out`, or the first failure.
inline skinpulse::net::ContentDecoder::Result decodeInSteps(skinpulse::net::ContentDecoder& decoder,
                                                            const std::string& encoded,
                                                            std::size_t step, std::string& out,
                                                            std::size_t limit = 1u << 30) {
  using Result = skinpulse::net::ContentDecoder::Result;
  for (std::size_t at = 0; at < encoded.size(); at += step) {
    const Result result = decoder.decode(std::string_view(encoded).substr(at, step), out, limit);
    if (result != Result::kOk) return result;
  }
  return decoder.finish();
}

}  // namespace testdecode
