#include "ClientTestSupport.hpp"

#include <Poco/Net/ServerSocket.h>

#include <algorithm>

namespace clienttest {

void streamBody(Poco::Net::HTTPServerResponse& response, StreamRecord& record, std::uint64_t total,
                bool chunked) {
  if (chunked) {
    response.setChunkedTransferEncoding(true);
  } else {
    response.setContentLength64(static_cast<Poco::Int64>(total));
  }
  const std::string piece(64 * 1024, 'x');
  try {
    std::ostream& out = response.send();
    while (record.written < total) {
      const auto size = std::min<std::uint64_t>(piece.size(), total - record.written);
      out.write(piece.data(), static_cast<std::streamsize>(size));
      out.flush();
      if (!out) {
        record.failed = true;
        break;
      }
      record.written += size;
    }
  } catch (...) {
    record.failed = true;
  }
  record.done.set_value();
}

std::uint16_t closedPort() {
  Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0));
  const std::uint16_t port = socket.address().port();
  socket.close();
  return port;
}

}  // namespace clienttest
