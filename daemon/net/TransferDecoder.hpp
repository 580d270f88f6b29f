#pragma once

// Undoes the transfer framing of a response body (RFC 9112 §6): a Content-Length, the
// chunked coding, or reading until the server closes. A body that ends early or a chunk
// header that does not parse is a protocol error, never a shorter body.

#include "net/ConnectionReader.hpp"

#include <cstddef>
#include <cstdint>

namespace skinpulse::net {

class TransferDecoder {
 public:
  enum class Framing { kLength, kChunked, kUntilClose };

  /// `length` counts only for Framing::kLength.
  TransferDecoder(ConnectionReader& connection, Framing framing, std::uint64_t length = 0);

  /// At most `n` body bytes into `out`; 0 at the proper end of the body. Throws
  /// Poco::Net::MessageException when the connection ends early or the framing is broken.
  std::size_t read(char* out, std::size_t n);

 private:
  std::size_t readChunked(char* out, std::size_t n);
  void startChunk();
  void skipTrailers();
  std::string readLine();

  ConnectionReader& connection_;
  Framing framing_;
  std::uint64_t remaining_;  ///< of the body (kLength) or of the current chunk (kChunked)
  bool finished_ = false;
};

}  // namespace skinpulse::net
