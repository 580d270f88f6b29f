// http::PreparedBody (docs/architecture.md, "Prepared bodies"): the gzip and br
// representations decode to exactly the identity bytes, Accept-Encoding is negotiated with
// its q-values (q=0 refuses a coding), each representation has its own ETag and a 304,
// small bodies stay identity only, and large ones are sealed into a file that holds the
// same bytes and refuses writes.

#include "http/PreparedBody.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <brotli/decode.h>
#include <string>
#include <unistd.h>
#include <zlib.h>

using namespace skinpulse::http;

namespace {

std::string gunzip(const std::string& bytes) {
  z_stream stream{};
  if (inflateInit2(&stream, 15 + 16) != Z_OK) return "<init failed>";
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  int rc = Z_OK;
  while (rc == Z_OK) {
    char chunk[65536];
    stream.next_out = reinterpret_cast<Bytef*>(chunk);
    stream.avail_out = sizeof chunk;
    rc = inflate(&stream, Z_NO_FLUSH);
    out.append(chunk, sizeof chunk - stream.avail_out);
  }
  inflateEnd(&stream);
  return rc == Z_STREAM_END ? out : "<inflate failed>";
}

std::string unbrotli(const std::string& bytes) {
  std::string out(bytes.size() * 400 + 1024, '\0');
  std::size_t size = out.size();
  if (BrotliDecoderDecompress(bytes.size(), reinterpret_cast<const std::uint8_t*>(bytes.data()),
                              &size, reinterpret_cast<std::uint8_t*>(out.data())) !=
      BROTLI_DECODER_RESULT_SUCCESS) {
    return "<brotli failed>";
  }
  out.resize(size);
  return out;
}

// A history-like body: many similar objects, as /history sends.
std::string historyBody(int points) {
  std::string body = "[";
  for (int i = 0; i < points; ++i) {
    if (i > 0) body += ',';
    body += "{\"time\":\"2026-11-28T1" + std::to_string(i % 10) +
            ":00:00Z\",\"price\":" + std::to_string(1000 + i * 7 % 500) +
            ",\"volume\":3,\"kind\":\"ask\",\"listings\":null,\"source\":\"sim\","
            "\"outlier\":false}";
  }
  return body + "]";
}

Response sendWith(const PreparedBody& body, const std::string& accept,
                  const std::string& if_none_match = "") {
  Request request;
  request.method = "GET";
  if (!accept.empty()) request.headers.emplace_back("Accept-Encoding", accept);
  if (!if_none_match.empty()) request.headers.emplace_back("If-None-Match", if_none_match);
  Response response;
  body.send(request, response);
  return response;
}

std::string header(const Response& response, const std::string& name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return value;
  }
  return "<none>";
}

}  // namespace

class PreparedBodyTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PreparedBodyTest);
  CPPUNIT_TEST(encodedRepresentationsDecodeToTheIdentityBytes);
  CPPUNIT_TEST(negotiatesWithQValues);
  CPPUNIT_TEST(eachRepresentationHasItsEtagAndItsNotModified);
  CPPUNIT_TEST(smallBodiesStayIdentity);
  CPPUNIT_TEST(largeRepresentationsAreSealedFilesOfTheSameBytes);
  CPPUNIT_TEST(responsesShareTheBodyInsteadOfCopyingIt);
  CPPUNIT_TEST_SUITE_END();

 public:
  void encodedRepresentationsDecodeToTheIdentityBytes() {
    const std::string identity = historyBody(2000);
    const auto body = PreparedBody::make(identity);
    const auto& gzip = body->representation(PreparedBody::Coding::kGzip);
    const auto& br = body->representation(PreparedBody::Coding::kBrotli);
    CPPUNIT_ASSERT(gzip.prepared && br.prepared);
    CPPUNIT_ASSERT(gzip.bytes.size() < identity.size() / 4);
    CPPUNIT_ASSERT(br.bytes.size() < gzip.bytes.size());
    CPPUNIT_ASSERT(gunzip(gzip.bytes) == identity);
    CPPUNIT_ASSERT(unbrotli(br.bytes) == identity);
    // What a response carries is the representation's bytes, with its coding named.
    const Response sent = sendWith(*body, "gzip");
    CPPUNIT_ASSERT_EQUAL(std::string("gzip"), header(sent, "Content-Encoding"));
    CPPUNIT_ASSERT(gunzip(std::string(sent.bodyView())) == identity);
    CPPUNIT_ASSERT_EQUAL(std::string("Accept-Encoding"), header(sent, "Vary"));
  }

  void negotiatesWithQValues() {
    const auto body = PreparedBody::make(historyBody(200));
    using C = PreparedBody::Coding;
    CPPUNIT_ASSERT(body->choose("") == C::kIdentity);
    CPPUNIT_ASSERT(body->choose("gzip") == C::kGzip);
    CPPUNIT_ASSERT(body->choose("gzip, deflate, br") == C::kBrotli);
    CPPUNIT_ASSERT(body->choose("GZIP;Q=0.5") == C::kGzip);
    CPPUNIT_ASSERT(body->choose("br;q=0, gzip;q=0.1") == C::kGzip);
    CPPUNIT_ASSERT(body->choose("br;q=0, gzip;q=0") == C::kIdentity);
    CPPUNIT_ASSERT(body->choose("br;q=0.000, gzip;q=0.0") == C::kIdentity);
    CPPUNIT_ASSERT(body->choose("*") == C::kBrotli);
    CPPUNIT_ASSERT(body->choose("*;q=0") == C::kIdentity);
    CPPUNIT_ASSERT(body->choose("br;q=0, *") == C::kGzip);  // its own entry beats "*"
    CPPUNIT_ASSERT(body->choose("identity") == C::kIdentity);
    CPPUNIT_ASSERT(body->choose("gzip;q=2") == C::kIdentity);  // malformed: not taken
    CPPUNIT_ASSERT(!acceptsCoding("gzipx", "gzip"));
    // The answer says identity by sending no Content-Encoding at all.
    CPPUNIT_ASSERT_EQUAL(std::string("<none>"),
                         header(sendWith(*body, "gzip;q=0"), "Content-Encoding"));
  }

  void eachRepresentationHasItsEtagAndItsNotModified() {
    const auto body = PreparedBody::make(historyBody(200));
    const Response plain = sendWith(*body, "");
    const Response gzip = sendWith(*body, "gzip");
    const Response br = sendWith(*body, "br");
    const std::string plain_tag = header(plain, "ETag");
    CPPUNIT_ASSERT(plain_tag.size() > 2 && plain_tag.front() == '"' && plain_tag.back() == '"');
    CPPUNIT_ASSERT(plain_tag != header(gzip, "ETag"));
    CPPUNIT_ASSERT(header(gzip, "ETag") != header(br, "ETag"));
    // The tag of the representation the client holds: 304, no body, still Vary and ETag.
    const Response not_modified = sendWith(*body, "gzip", header(gzip, "ETag"));
    CPPUNIT_ASSERT_EQUAL(304, not_modified.status);
    CPPUNIT_ASSERT(not_modified.bodyView().empty());
    CPPUNIT_ASSERT_EQUAL(header(gzip, "ETag"), header(not_modified, "ETag"));
    CPPUNIT_ASSERT_EQUAL(std::string("Accept-Encoding"), header(not_modified, "Vary"));
    CPPUNIT_ASSERT_EQUAL(304, sendWith(*body, "", "W/" + plain_tag).status);
    CPPUNIT_ASSERT_EQUAL(304, sendWith(*body, "", "\"x\", " + plain_tag).status);
    // Another representation's tag is not this one's: the full answer.
    CPPUNIT_ASSERT_EQUAL(200, sendWith(*body, "", header(gzip, "ETag")).status);
    // Other bytes, another tag.
    CPPUNIT_ASSERT(header(sendWith(*PreparedBody::make(historyBody(201)), ""), "ETag") !=
                   plain_tag);
  }

  void smallBodiesStayIdentity() {
    const auto body = PreparedBody::make("[]");
    CPPUNIT_ASSERT(!body->representation(PreparedBody::Coding::kGzip).prepared);
    CPPUNIT_ASSERT(!body->representation(PreparedBody::Coding::kBrotli).prepared);
    const Response sent = sendWith(*body, "br, gzip");
    CPPUNIT_ASSERT_EQUAL(std::string("[]"), std::string(sent.bodyView()));
    CPPUNIT_ASSERT_EQUAL(std::string("<none>"), header(sent, "Content-Encoding"));
    CPPUNIT_ASSERT_EQUAL(-1, sent.shared_body_fd);
  }

  void largeRepresentationsAreSealedFilesOfTheSameBytes() {
    const std::string identity = historyBody(4000);
    const auto body = PreparedBody::make(identity, PreparedBodyOptions{.sendfile_min_bytes = 4096});
    const auto& plain = body->representation(PreparedBody::Coding::kIdentity);
    CPPUNIT_ASSERT(plain.fd >= 0);
    std::string read(identity.size() + 16, '\0');
    const auto n = ::pread(plain.fd, read.data(), read.size(), 0);
    CPPUNIT_ASSERT_EQUAL(static_cast<ssize_t>(identity.size()), n);
    read.resize(static_cast<std::size_t>(n));
    CPPUNIT_ASSERT(read == identity);
    CPPUNIT_ASSERT(::pwrite(plain.fd, "x", 1, 0) < 0);  // sealed
    CPPUNIT_ASSERT_EQUAL(plain.fd, sendWith(*body, "").shared_body_fd);
    // The file copies count in the memory the cache bounds.
    CPPUNIT_ASSERT(body->memoryBytes() >= 2 * identity.size());
    // Without sendfile: memory only.
    const auto unsealed =
        PreparedBody::make(identity, PreparedBodyOptions{.sendfile_min_bytes = 0});
    CPPUNIT_ASSERT_EQUAL(-1, unsealed->representation(PreparedBody::Coding::kIdentity).fd);
  }

  void responsesShareTheBodyInsteadOfCopyingIt() {
    std::weak_ptr<const PreparedBody> watch;
    Response kept;
    {
      const auto body = PreparedBody::make(historyBody(300));
      watch = body;
      kept = sendWith(*body, "br");
      CPPUNIT_ASSERT(kept.bodyView().data() ==
                     body->representation(PreparedBody::Coding::kBrotli).bytes.data());
    }
    // The response alone keeps the prepared body (and its files) alive until it is sent.
    CPPUNIT_ASSERT(!watch.expired());
    kept = Response();
    CPPUNIT_ASSERT(watch.expired());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PreparedBodyTest);
