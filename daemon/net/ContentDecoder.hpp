#pragma once

// Streaming decoders for the response's Content-Encoding. They are fed the body piece by
// piece as it arrives and never hold more decoded bytes than the caller's limit, so a
// decompression bomb (100 MB of zeros in 100 KB of gzip) costs a refusal, not 100 MB.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace skinpulse::net {

class ContentDecoder {
 public:
  enum class Result {
    kOk,
    kTooLarge,  ///< the decoded body would pass the limit; stop feeding
    kCorrupt,   ///< not a valid stream of this encoding (or cut short, from finish())
  };

  /// Takes the next decoded piece (at most 16 KiB, so the decoder never holds more than
  /// that whatever the compression ratio); false stops decoding with kTooLarge.
  using Emit = std::function<bool(std::string_view decoded)>;

  virtual ~ContentDecoder() = default;

  /// Decodes the next piece of the encoded body and hands the result to `emit` piece by
  /// piece; as soon as `emit` answers false the answer is kTooLarge and nothing more is
  /// decoded. Input after the end of the compressed stream is ignored, as curl does, since
  /// some servers pad.
  virtual Result decodeTo(std::string_view input, const Emit& emit) = 0;

  /// decodeTo() appending to `out`, which never grows beyond `limit` bytes: past it the
  /// answer is kTooLarge.
  Result decode(std::string_view input, std::string& out, std::size_t limit);

  /// Called once the whole body has been fed: kCorrupt when the stream is incomplete.
  virtual Result finish() = 0;
};

/// The decoder for a Content-Encoding value (case-insensitive, surrounding blanks
/// ignored): "" and "identity" pass through, "gzip"/"x-gzip", "deflate" and "br" decode.
/// nullptr for anything else, including lists of several codings, which no upstream sends.
std::unique_ptr<ContentDecoder> makeContentDecoder(std::string_view content_encoding);

/// True for the codings that leave the body as it is ("" and "identity").
bool isIdentityEncoding(std::string_view content_encoding);

/// Appends `data` to `out` unless that would make it longer than `limit`.
ContentDecoder::Result appendWithin(std::string_view data, std::string& out, std::size_t limit);

}  // namespace skinpulse::net
