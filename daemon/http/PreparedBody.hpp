#pragma once

// PreparedBody: a response body rendered once and kept, immutable, in every encoding a
// client may ask for (identity, gzip, br), each with its strong ETag; bodies large enough
// are also sealed into an in-memory file so the connection sends them with sendfile(2), as
// nginx sends a static file, instead of copying them into the socket per request
// (docs/architecture.md, "Prepared bodies"). Built by the history cache's users
// (/history, /candles) when they render a body, shared by every response that sends it:
// a request costs a reference count, never a copy or a compression.
//
// send() negotiates (RFC 9110 §12.5.3): br, then gzip, when Accept-Encoding names the
// coding (or "*") with q > 0; identity otherwise. Every answer carries
// `Vary: Accept-Encoding` and the ETag of the representation sent (the encoded ones add a
// suffix, so a cache never confuses them); If-None-Match on it is a 304 without a body.

#include "http/Request.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace skinpulse::http {

struct PreparedBodyOptions {
  /// Bodies shorter than this are kept in identity only: the compressed copy would save
  /// less than a packet.
  std::size_t compress_min_bytes = 1024;
  /// Representations at least this long are also sealed into a memfd and sent with
  /// sendfile (a copy into the socket costs more than the extra syscall); 0: never.
  std::size_t sendfile_min_bytes = 32 * 1024;
  int gzip_level = 6;      ///< zlib's default: most of level 9's ratio at a fraction of its time
  int brotli_quality = 5;  ///< a body is compressed on a cache miss, on a worker: fast levels
};

class PreparedBody : public std::enable_shared_from_this<PreparedBody> {
 public:
  enum class Coding { kIdentity = 0, kGzip = 1, kBrotli = 2 };

  /// One encoding of the body. A response sends `bytes` through a pointer that shares
  /// the PreparedBody's ownership, so it keeps the whole body, and its file, alive.
  struct Representation {
    bool prepared = false;  ///< false: not offered in this coding
    std::string bytes;
    std::string etag;  ///< quoted, strong
    int fd = -1;       ///< a sealed memfd holding `bytes`, or -1
  };

  /// Compresses `identity` (when large enough and when it helps) and seals the large
  /// representations into files. Never fails: a coding that cannot be made (a compressor
  /// error, no memfd) is simply not offered.
  static std::shared_ptr<const PreparedBody> make(std::string identity,
                                                  const PreparedBodyOptions& options = {});
  ~PreparedBody();
  PreparedBody(const PreparedBody&) = delete;
  PreparedBody& operator=(const PreparedBody&) = delete;

  const Representation& representation(Coding coding) const {
    return representations_[static_cast<int>(coding)];
  }
  const std::string& identity() const { return representations_[0].bytes; }
  /// What the body holds in memory, every representation and its file copy counted: the
  /// history cache's byte bound counts this.
  std::size_t memoryBytes() const { return memory_bytes_; }

  /// The coding `accept_encoding` (the header's value, "" when absent) selects among the
  /// prepared ones.
  Coding choose(std::string_view accept_encoding) const;
  /// Answers 200 (or 304) with the negotiated representation; the response's status,
  /// content type and body are replaced, its other headers kept.
  void send(const Request& request, Response& response) const;

 private:
  PreparedBody() = default;
  void seal(Representation& representation, const PreparedBodyOptions& options);

  Representation representations_[3];
  std::size_t memory_bytes_ = 0;
};

/// The content tag of `bytes` (32 hex digits, unquoted): what every strong ETag the daemon
/// sends is made of, the dashboard's files included.
std::string contentTag(std::string_view bytes);
/// Whether Accept-Encoding `header` accepts `coding` (RFC 9110 §12.5.3): its own entry's
/// q > 0, else a "*" entry's q > 0. Names are case-insensitive.
bool acceptsCoding(std::string_view header, std::string_view coding);
/// Whether If-None-Match `header` matches `etag` (weak comparison; "*" matches).
bool ifNoneMatchMatches(std::string_view header, std::string_view etag);

/// Body compression, for PreparedBody and its tests; empty on failure.
std::string gzipCompress(std::string_view bytes, int level);
std::string brotliCompress(std::string_view bytes, int quality);

}  // namespace skinpulse::http
