#include "http/PreparedBody.hpp"

#include <brotli/encode.h>
#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

namespace skinpulse::http {
namespace {

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash) {
  for (const unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string_view trimSpaces(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool equalsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if ((a[i] | 0x20) != (b[i] | 0x20)) return false;
  }
  return true;
}

// The q of one Accept-Encoding element's parameters ("q=0.5"); 1 when absent. A malformed
// q counts as 0: a client that cannot spell its weight gets identity, which is always safe.
double qualityOf(std::string_view params) {
  while (!params.empty()) {
    const auto semi = params.find(';');
    const std::string_view param = trimSpaces(params.substr(0, semi));
    if (param.size() >= 2 && (param[0] | 0x20) == 'q' && param[1] == '=') {
      const std::string_view value = param.substr(2);
      if (value.empty() || value.size() > 5 || (value[0] != '0' && value[0] != '1')) return 0;
      double q = value[0] - '0';
      if (value.size() > 1) {
        if (value[1] != '.') return 0;
        double scale = 0.1;
        for (const char c : value.substr(2)) {
          if (c < '0' || c > '9') return 0;
          q += (c - '0') * scale;
          scale /= 10;
        }
      }
      return q > 1 ? 0 : q;
    }
    if (semi == std::string_view::npos) break;
    params.remove_prefix(semi + 1);
  }
  return 1;
}

constexpr const char* kCodingNames[] = {"identity", "gzip", "br"};
constexpr const char* kTagSuffixes[] = {"", "-gz", "-br"};

}  // namespace

// Two FNV-1a passes with different seeds: 128 bits, so two bodies of one URL never share a
// tag by chance. Computed once per prepared body, never per request.
std::string contentTag(std::string_view bytes) {
  char text[40];
  std::snprintf(text, sizeof text, "%016llx%016llx",
                static_cast<unsigned long long>(fnv1a(bytes, 0xcbf29ce484222325ULL)),
                static_cast<unsigned long long>(fnv1a(bytes, 0x84222325cbf29ce4ULL)));
  return text;
}

bool acceptsCoding(std::string_view header, std::string_view coding) {
  double own = -1;
  double star = -1;
  while (!header.empty()) {
    const auto comma = header.find(',');
    const std::string_view element = trimSpaces(header.substr(0, comma));
    const auto semi = element.find(';');
    const std::string_view name = trimSpaces(element.substr(0, semi));
    const double q = semi == std::string_view::npos ? 1.0 : qualityOf(element.substr(semi + 1));
    if (equalsNoCase(name, coding)) own = q;
    if (name == "*") star = q;
    if (comma == std::string_view::npos) break;
    header.remove_prefix(comma + 1);
  }
  return own >= 0 ? own > 0 : star > 0;
}

bool ifNoneMatchMatches(std::string_view header, std::string_view etag) {
  while (!header.empty()) {
    const auto comma = header.find(',');
    std::string_view one = trimSpaces(header.substr(0, comma));
    if (one == "*") return true;
    if (one.substr(0, 2) == "W/") one.remove_prefix(2);  // weak comparison (RFC 9110 §13.1.2)
    if (one == etag) return true;
    if (comma == std::string_view::npos) break;
    header.remove_prefix(comma + 1);
  }
  return false;
}

std::string gzipCompress(std::string_view bytes, int level) {
  z_stream stream{};
  // 15 + 16: a gzip wrapper (RFC 1952), not raw zlib: what Content-Encoding: gzip means.
  if (deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return {};
  std::string out(deflateBound(&stream, bytes.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&stream, Z_FINISH);
  const std::size_t written = stream.total_out;
  deflateEnd(&stream);
  if (rc != Z_STREAM_END) return {};
  out.resize(written);
  return out;
}

std::string brotliCompress(std::string_view bytes, int quality) {
  std::size_t size = BrotliEncoderMaxCompressedSize(bytes.size());
  if (size == 0) return {};
  std::string out(size, '\0');
  if (BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, bytes.size(),
                            reinterpret_cast<const std::uint8_t*>(bytes.data()), &size,
                            reinterpret_cast<std::uint8_t*>(out.data())) != BROTLI_TRUE) {
    return {};
  }
  out.resize(size);
  return out;
}

std::shared_ptr<const PreparedBody> PreparedBody::make(std::string identity,
                                                       const PreparedBodyOptions& options) {
  std::shared_ptr<PreparedBody> body(new PreparedBody());
  const std::string tag = contentTag(identity);
  const bool compress = identity.size() >= options.compress_min_bytes;
  auto& plain = body->representations_[0];
  plain.prepared = true;
  plain.bytes = std::move(identity);
  if (compress) {
    const std::string_view source = plain.bytes;
    std::string encoded[] = {{},
                             gzipCompress(source, options.gzip_level),
                             brotliCompress(source, options.brotli_quality)};
    for (int coding = 1; coding <= 2; ++coding) {
      // Offered only when it is smaller: a client asking for gzip takes identity too.
      if (encoded[coding].empty() || encoded[coding].size() >= source.size()) continue;
      auto& representation = body->representations_[coding];
      representation.prepared = true;
      representation.bytes = std::move(encoded[coding]);
    }
  }
  for (int coding = 0; coding <= 2; ++coding) {
    auto& representation = body->representations_[coding];
    if (!representation.prepared) continue;
    representation.etag = "\"" + tag + kTagSuffixes[coding] + "\"";
    body->seal(representation, options);
    body->memory_bytes_ += representation.bytes.size() + representation.etag.size();
    if (representation.fd >= 0) body->memory_bytes_ += representation.bytes.size();
  }
  return body;
}

void PreparedBody::seal(Representation& representation, const PreparedBodyOptions& options) {
  if (options.sendfile_min_bytes == 0 || representation.bytes.size() < options.sendfile_min_bytes) {
    return;
  }
  const int fd = ::memfd_create("skinpulse-body", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return;  // out of descriptors: sent from memory instead
  std::string_view rest = representation.bytes;
  while (!rest.empty()) {
    const ssize_t n = ::write(fd, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      return;
    }
    rest.remove_prefix(static_cast<std::size_t>(n));
  }
  // Sealed: the bytes a socket is sending from the file can never change under it.
  if (::fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
    ::close(fd);
    return;
  }
  representation.fd = fd;
}

PreparedBody::~PreparedBody() {
  for (const auto& representation : representations_) {
    if (representation.fd >= 0) ::close(representation.fd);
  }
}

PreparedBody::Coding PreparedBody::choose(std::string_view accept_encoding) const {
  if (accept_encoding.empty()) return Coding::kIdentity;
  for (const Coding coding : {Coding::kBrotli, Coding::kGzip}) {
    if (representation(coding).prepared &&
        acceptsCoding(accept_encoding, kCodingNames[static_cast<int>(coding)])) {
      return coding;
    }
  }
  return Coding::kIdentity;
}

void PreparedBody::send(const Request& request, Response& response) const {
  const Coding coding = choose(request.header("Accept-Encoding").value_or(std::string()));
  const Representation& chosen = representation(coding);
  response.body.clear();
  response.setHeader("Vary", "Accept-Encoding");
  response.setHeader("ETag", chosen.etag);
  const auto if_none_match = request.header("If-None-Match");
  if (if_none_match && ifNoneMatchMatches(*if_none_match, chosen.etag)) {
    response.status = 304;
    response.content_type.clear();
    response.shared_body.reset();
    response.shared_body_fd = -1;
    return;
  }
  response.status = 200;
  if (coding != Coding::kIdentity) {
    response.setHeader("Content-Encoding", kCodingNames[static_cast<int>(coding)]);
  }
  // Shares the prepared body's ownership: no copy, and the file stays open while sent.
  response.shared_body = std::shared_ptr<const std::string>(shared_from_this(), &chosen.bytes);
  response.shared_body_fd = chosen.fd;
}

}  // namespace skinpulse::http
