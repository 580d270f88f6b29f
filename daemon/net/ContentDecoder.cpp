#include "net/ContentDecoder.hpp"

#include "net/BrotliDecoder.hpp"
#include "net/ZlibDecoder.hpp"

namespace skinpulse::net {

namespace {

class IdentityDecoder final : public ContentDecoder {
 public:
  Result decodeTo(std::string_view input, const Emit& emit) override {
    // Pieces of at most 16 KiB, as the other decoders give: a consumer may rely on it.
    constexpr std::size_t kPiece = 16 * 1024;
    for (std::size_t at = 0; at < input.size(); at += kPiece) {
      if (!emit(input.substr(at, kPiece))) return Result::kTooLarge;
    }
    return Result::kOk;
  }
  Result finish() override { return Result::kOk; }
};

std::string normalise(std::string_view value) {
  const auto first = value.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = value.find_last_not_of(" \t");
  std::string out(value.substr(first, last - first + 1));
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return out;
}

}  // namespace

ContentDecoder::Result ContentDecoder::decode(std::string_view input, std::string& out,
                                              std::size_t limit) {
  return decodeTo(input, [&out, limit](std::string_view decoded) {
    return appendWithin(decoded, out, limit) == Result::kOk;
  });
}

ContentDecoder::Result appendWithin(std::string_view data, std::string& out, std::size_t limit) {
  if (data.size() > limit || out.size() > limit - data.size()) {
    return ContentDecoder::Result::kTooLarge;
  }
  out.append(data);
  return ContentDecoder::Result::kOk;
}

bool isIdentityEncoding(std::string_view content_encoding) {
  const std::string coding = normalise(content_encoding);
  return coding.empty() || coding == "identity";
}

std::unique_ptr<ContentDecoder> makeContentDecoder(std::string_view content_encoding) {
  if (isIdentityEncoding(content_encoding)) return std::make_unique<IdentityDecoder>();
  const std::string coding = normalise(content_encoding);
  if (coding == "gzip" || coding == "x-gzip") {
    return std::make_unique<ZlibDecoder>(ZlibDecoder::Format::kGzip);
  }
  if (coding == "deflate") return std::make_unique<ZlibDecoder>(ZlibDecoder::Format::kDeflate);
  if (coding == "br") return std::make_unique<BrotliDecoder>();
  return nullptr;
}

}  // namespace skinpulse::net
