#pragma once

// Buffered reading of what follows a response's head on the connection. The client takes
// the body off the socket itself rather than through Poco's body streams, which take a
// connection closed in the middle of a chunked body, or a garbled chunk size, for its end.

#include <cstddef>
#include <functional>
#include <string>

namespace skinpulse::net {

class ConnectionReader {
 public:
  /// `receive` reads at most n bytes from the connection into the buffer and returns how
  /// many, 0 at its end; it throws on errors. `buffered` is what the head parser had
  /// already read past the head.
  using Receive = std::function<std::size_t(char* buffer, std::size_t n)>;

  ConnectionReader(Receive receive, std::string buffered);

  /// At most `n` bytes into `out`; 0 only at the end of the connection.
  std::size_t read(char* out, std::size_t n);

  /// The next byte, or -1 at the end of the connection.
  int get();

 private:
  bool refill();

  Receive receive_;
  std::string buffer_;
  std::size_t position_ = 0;
};

}  // namespace skinpulse::net
