#pragma once

// Reads a response body under the client's limits: the total deadline, a cap on the bytes
// taken off the wire and, through the decoder, a cap on the decoded body. It stops at the
// first limit passed and never reads further; the caller then closes the connection.

#include "net/ContentDecoder.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace skinpulse::net {

struct BodyLimits {
  std::size_t max_encoded = 0;  ///< body bytes read off the wire (after transfer decoding)
  std::size_t max_decoded = 0;  ///< bytes of the body after content decoding
  std::chrono::steady_clock::time_point deadline;
};

enum class BodyStatus {
  kOk,
  kTimeout,   ///< the deadline passed between two reads
  kTooLarge,  ///< a cap was passed
  kCorrupt,   ///< the content encoding did not decode
  kStopped,   ///< the consumer of a streamed body said stop
};

/// Reads the body piece by piece through `next` (at most n bytes into the buffer, 0 at the
/// end; TransferDecoder::read), feeding `decoder` and appending the decoded body to `out`.
/// Exceptions thrown by `next` propagate.
using ReadBodyBytes = std::function<std::size_t(char* buffer, std::size_t n)>;
BodyStatus readBody(const ReadBodyBytes& next, ContentDecoder& decoder, const BodyLimits& limits,
                    std::string& out);

/// readBody() for a streamed body: each decoded piece (at most 16 KiB) goes to `take`
/// instead of a string, so nothing but one piece is held; `take` answering false stops
/// with kStopped. `limits.max_decoded` caps the total handed to `take`: the piece that
/// would pass it is not handed over (kTooLarge).
using TakeDecoded = std::function<bool(std::string_view decoded)>;
BodyStatus streamBody(const ReadBodyBytes& next, ContentDecoder& decoder, const BodyLimits& limits,
                      const TakeDecoded& take);

/// The wire cap for a body whose decoded size is capped at `max_decoded`. Compressed data
/// can be slightly larger than its plain form (gzip adds a few bytes per 64 KB stored
/// block), so an encoded body gets 1/256 + 1 KB of headroom; an identity body none.
std::size_t encodedLimitFor(std::size_t max_decoded, bool identity);

}  // namespace skinpulse::net
