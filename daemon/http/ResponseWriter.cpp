#include "http/ResponseWriter.hpp"

#include <Poco/Net/HTTPServerRequestImpl.h>
#include <Poco/Net/StreamSocket.h>

#include <cerrno>
#include <sstream>
#include <sys/uio.h>

namespace skinpulse::http {
namespace {

// writev() until every byte is out; false when the peer is gone or the socket timed out.
bool writeAll(int fd, iovec* parts, int count) {
  while (count > 0) {
    const ssize_t written = ::writev(fd, parts, count);
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    auto left = static_cast<std::size_t>(written);
    while (count > 0 && left >= parts->iov_len) {
      left -= parts->iov_len;
      ++parts;
      --count;
    }
    if (count > 0) {
      parts->iov_base = static_cast<char*>(parts->iov_base) + left;
      parts->iov_len -= left;
    }
  }
  return true;
}

}  // namespace

void writeResponse(Poco::Net::HTTPServerRequest* in, Poco::Net::HTTPServerResponse& out,
                   const Response& response, bool head_only) noexcept {
  try {
    out.setStatusAndReason(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(response.status));
    if (!response.content_type.empty()) out.setContentType(response.content_type);
    for (const auto& [name, value] : response.headers) out.set(name, value);
    const std::string_view body = response.bodyView();
    // A 1xx response has no body and must not announce one (RFC 9110 §8.6).
    if (response.status >= 200) out.setContentLength64(static_cast<Poco::Int64>(body.size()));
    auto* impl = dynamic_cast<Poco::Net::HTTPServerRequestImpl*>(in);
    if (impl == nullptr) {
      if (head_only) {
        out.send();
      } else {
        out.sendBuffer(body.data(), body.size());
      }
      return;
    }
    std::ostringstream head;
    out.write(head);
    const std::string headers = head.str();
    iovec parts[2] = {{const_cast<char*>(headers.data()), headers.size()},
                      {const_cast<char*>(body.data()), body.size()}};
    const int count = head_only || body.empty() ? 1 : 2;
    if (!writeAll(impl->socket().impl()->sockfd(), parts, count)) {
      out.setKeepAlive(false);  // the connection is broken; let Poco close it
    }
  } catch (...) {
    // Nothing useful can be sent any more; Poco closes the connection.
    out.setKeepAlive(false);
  }
}

}  // namespace skinpulse::http
